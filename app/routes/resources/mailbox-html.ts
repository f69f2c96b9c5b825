import { data } from 'react-router'
import { getDb } from '#app/utils/db.server.ts'
import { parseRowId } from '#app/utils/row-id.ts'
import { requireMailboxReader } from './+shared/mailbox.server.ts'
import type { Route } from './+types/mailbox-html'

/**
 * The HTML part of one queued mail, for the mailbox's frame. The mail is the app's own, but its
 * text came from users (names, announcements): `sandbox` gives the document an opaque origin with
 * no scripts, forms or plugins, so nothing in it acts as the site.
 */
const MAIL_POLICY = "sandbox; default-src 'none'; style-src 'unsafe-inline'; img-src https: data:; frame-ancestors 'self'"

export async function loader({ request, params }: Route.LoaderArgs) {
	await requireMailboxReader(request)
	const id = parseRowId(params.mailId)
	const mail = id ? await getDb().selectFrom('email_outbox').select('html_body').where('id', '=', id).executeTakeFirst() : undefined
	if (!mail?.html_body) throw data('This mail has no HTML part.', { status: 404 })
	return new Response(mail.html_body, {
		headers: {
			'Content-Type': 'text/html; charset=utf-8',
			'Content-Security-Policy': MAIL_POLICY,
			'Referrer-Policy': 'no-referrer',
			'Cache-Control': 'no-store',
		},
	})
}
