// In @billing/rest-representation: webhook deliveries show accounts exactly as the API does.
export {
  presentAccount,
  presentAccountWithSubscriptions,
  presentPaymentGatewayAccount,
  presentRecipient,
} from '@billing/rest-representation';
