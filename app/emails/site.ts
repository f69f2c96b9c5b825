export const SITE_NAME = 'Real Estate Mentorship'

/** Where a mail's links point and who answers it: every template is given this. */
export type EmailSite = {
	/** The site's origin, without a trailing slash (APP_URL): every link in a mail is absolute. */
	url: string
	contactEmail: string
}
