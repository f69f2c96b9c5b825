/** Where a mail's links point and who answers it: every template is given this. */
export type EmailSite = {
	/** The school's name, as the admin set it (School Details): the mail's header, footer and reasons say it. */
	name: string
	/** The site's origin, without a trailing slash (APP_URL): every link in a mail is absolute. */
	url: string
	contactEmail: string
}
