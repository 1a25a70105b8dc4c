// The representation helpers live in @billing/rest-representation (the accounts service renders
// webhook data with them too); route files keep importing them from here.
export { nullable, REPRESENTATION_DATE, tagged } from '@billing/rest-representation';
