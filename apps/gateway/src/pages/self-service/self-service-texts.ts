/**
 * The self-service page's words, in the languages they exist in (gaps.md §11: the account's
 * language where the texts exist); every other language gets English.
 */
export interface SelfServiceTexts {
  lang: string;
  title: string;
  signInTitle: string;
  signInIntro: string;
  signInButton: string;
  linkUsed: string;
  linkExpired: string;
  linkUnknown: string;
  askForNewLink: string;
  signedOut: string;
  notSignedIn: string;
  unavailable: string;
  signOut: string;
  chooseAccount: string;
  notFound: string;
  somethingWrong: string;
  invoices: string;
  noInvoices: string;
  invoiceNumber: string;
  date: string;
  dueDate: string;
  total: string;
  status: string;
  downloadPdf: string;
  creditNote: string;
  invoiceStatus: Readonly<Record<string, string>>;
  subscriptions: string;
  noSubscriptions: string;
  plan: string;
  quantity: string;
  price: string;
  nextRenewal: string;
  subscriptionStatus: Readonly<Record<string, string>>;
  cards: string;
  noCards: string;
  card: string;
  expires: string;
  active: string;
  disabled: string;
  disable: string;
  addCard: string;
  cannotAddCard: string;
  cardDisabled: string;
  cardAdded: string;
}

const EN: SelfServiceTexts = {
  lang: 'en',
  title: 'Your account',
  signInTitle: 'Sign in',
  signInIntro: 'Sign in to see your invoices and subscriptions and to manage your payment cards.',
  signInButton: 'Sign in',
  linkUsed: 'This sign-in link was already used.',
  linkExpired: 'This sign-in link has expired.',
  linkUnknown: 'This sign-in link is not valid.',
  askForNewLink: 'Ask for a new link where you got this one.',
  signedOut: 'You are signed out.',
  notSignedIn: 'You are not signed in, or your session has ended.',
  unavailable: 'Self-service is not available.',
  signOut: 'Sign out',
  chooseAccount: 'Choose an account',
  notFound: 'Not found.',
  somethingWrong: 'Something went wrong. Please try again.',
  invoices: 'Invoices',
  noInvoices: 'No invoices yet.',
  invoiceNumber: 'Number',
  date: 'Date',
  dueDate: 'Due date',
  total: 'Total',
  status: 'Status',
  downloadPdf: 'Download PDF',
  creditNote: 'Credit note',
  invoiceStatus: { open: 'Open', paid: 'Paid', credited: 'Credited' },
  subscriptions: 'Subscriptions',
  noSubscriptions: 'No subscriptions.',
  plan: 'Plan',
  quantity: 'Quantity',
  price: 'Price',
  nextRenewal: 'Next renewal',
  subscriptionStatus: {
    scheduled: 'Scheduled',
    active: 'Active',
    not_renewing: 'Not renewing',
    pending_manual_renewal: 'Awaiting renewal',
    expired: 'Expired',
  },
  cards: 'Payment cards',
  noCards: 'No payment cards.',
  card: 'Card',
  expires: 'Expires',
  active: 'Active',
  disabled: 'Disabled',
  disable: 'Disable',
  addCard: 'Add a card',
  cannotAddCard: 'Cards cannot be added here; please contact us.',
  cardDisabled: 'The card is disabled.',
  cardAdded: 'Your card is registered.',
};

const DA: SelfServiceTexts = {
  lang: 'da',
  title: 'Din konto',
  signInTitle: 'Log ind',
  signInIntro: 'Log ind for at se dine fakturaer og abonnementer og administrere dine betalingskort.',
  signInButton: 'Log ind',
  linkUsed: 'Dette login-link er allerede brugt.',
  linkExpired: 'Dette login-link er udløbet.',
  linkUnknown: 'Dette login-link er ikke gyldigt.',
  askForNewLink: 'Bed om et nyt link der, hvor du fik dette.',
  signedOut: 'Du er logget ud.',
  notSignedIn: 'Du er ikke logget ind, eller din session er udløbet.',
  unavailable: 'Selvbetjening er ikke tilgængelig.',
  signOut: 'Log ud',
  chooseAccount: 'Vælg en konto',
  notFound: 'Ikke fundet.',
  somethingWrong: 'Noget gik galt. Prøv igen.',
  invoices: 'Fakturaer',
  noInvoices: 'Ingen fakturaer endnu.',
  invoiceNumber: 'Nummer',
  date: 'Dato',
  dueDate: 'Forfaldsdato',
  total: 'Total',
  status: 'Status',
  downloadPdf: 'Hent PDF',
  creditNote: 'Kreditnota',
  invoiceStatus: { open: 'Åben', paid: 'Betalt', credited: 'Krediteret' },
  subscriptions: 'Abonnementer',
  noSubscriptions: 'Ingen abonnementer.',
  plan: 'Plan',
  quantity: 'Antal',
  price: 'Pris',
  nextRenewal: 'Næste fornyelse',
  subscriptionStatus: {
    scheduled: 'Planlagt',
    active: 'Aktiv',
    not_renewing: 'Fornyes ikke',
    pending_manual_renewal: 'Afventer fornyelse',
    expired: 'Udløbet',
  },
  cards: 'Betalingskort',
  noCards: 'Ingen betalingskort.',
  card: 'Kort',
  expires: 'Udløber',
  active: 'Aktivt',
  disabled: 'Deaktiveret',
  disable: 'Deaktiver',
  addCard: 'Tilføj et kort',
  cannotAddCard: 'Kort kan ikke tilføjes her; kontakt os.',
  cardDisabled: 'Kortet er deaktiveret.',
  cardAdded: 'Dit kort er registreret.',
};

const BY_LANGUAGE: Readonly<Record<string, SelfServiceTexts>> = { en: EN, da: DA };

export function selfServiceTexts(language: string | undefined): SelfServiceTexts {
  return BY_LANGUAGE[language ?? ''] ?? EN;
}
