/** Shared by the forms and their actions. */
export const MAX_MESSAGE_LENGTH = 20_000
export const EMPTY_MESSAGE = 'Please enter a message'
