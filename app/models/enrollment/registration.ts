/** What the registration wizard tells a visitor: shared by its forms and its actions. */
export const COURSE_FULL_MESSAGE = 'This course is now full. Please join our waitlist to be notified when spots become available.'
export const EMAIL_TAKEN_MESSAGE = 'An account with this email already exists. Please log in instead.'
export const TOO_MANY_REGISTRATIONS_MESSAGE = 'Too many registrations from your network. Please wait an hour and try again.'
