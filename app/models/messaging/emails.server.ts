import type { Kysely } from 'kysely'
import { createElement, type ReactElement } from 'react'
import { renderEmail } from '#app/emails/render.server.ts'
import type { EmailSite } from '#app/emails/site.ts'
import { getSchoolDetails } from '#app/models/site/site-settings.server.ts'
import { enqueueMails, type OutgoingMail } from '#app/services/mail/index.server.ts'
import { getEnv } from '#app/utils/env.server.ts'
import type { Database } from '#db/types.ts'

/** The site's origin (APP_URL), which every link in a mail starts with. */
export function siteUrl() {
	return getEnv().APP_URL
}

/**
 * The site as every mail names it: the school's name as the admin set it under School Details
 * (docs/decisions/050), absolute links from APP_URL, the footer's CONTACT_EMAIL.
 */
export async function emailSite(db: Kysely<Database>): Promise<EmailSite> {
	const env = getEnv()
	const { name } = await getSchoolDetails(db)
	return { name, url: env.APP_URL, contactEmail: env.CONTACT_EMAIL }
}

/**
 * Renders a template (app/emails) into its HTML and plain-text parts now, and queues the mail
 * in the caller's transaction: the outbox holds exactly what will be sent. A mail whose
 * `dedupeKey` is in the outbox already is not queued again: the answer says whether it was queued.
 */
export async function enqueueEmail(db: Kysely<Database>, { body, ...mail }: Omit<OutgoingMail, 'text' | 'html'> & { body: ReactElement }) {
	const { html, text } = await renderEmail(body)
	const ids = await enqueueMails(db, [{ ...mail, html, text }])
	return ids.length > 0
}

/**
 * Queues one mail of a template that takes the site (every template does): `props` are the rest of
 * its props, or make them from the site when a link needs its origin.
 */
export async function enqueueSiteEmail<Props extends { site: EmailSite }>(
	db: Kysely<Database>,
	template: (props: Props) => ReactElement,
	{ props, ...mail }: Omit<OutgoingMail, 'text' | 'html'> & { props: Omit<Props, 'site'> | ((site: EmailSite) => Omit<Props, 'site'>) },
) {
	const site = await emailSite(db)
	return enqueueEmail(db, {
		...mail,
		body: createElement(template, { ...(typeof props === 'function' ? props(site) : props), site } as Props),
	})
}
