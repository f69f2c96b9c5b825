/**
 * What the purchase forms and their actions share about a buyer's open checkout
 * (docs/decisions/040): a buyer has at most one per course, and may cancel it to start again.
 */
export const CANCEL_CHECKOUT_INTENT = 'cancel-checkout'
