import { data, href, redirect } from 'react-router'
import { setAnnouncementEmails, userOfUnsubscribeToken } from '#app/models/accounts/email-preferences.server.ts'
import { getDb } from '#app/utils/db.server.ts'
import { readFormData } from '#app/utils/form-data.server.ts'
import type { Route } from './+types/unsubscribe-one-click'

/** A client that opens the List-Unsubscribe address instead of posting to it (RFC 2369) gets the page. */
export async function loader({ request }: Route.LoaderArgs) {
	return redirect(`${href('/unsubscribe')}${new URL(request.url).search}`)
}

/**
 * The RFC 8058 one-click unsubscribe: the address of an announcement's `List-Unsubscribe`
 * header, to which a mail client posts `List-Unsubscribe=One-Click` from its own site, with
 * no cookie. So it is exempt from the forgery check (scripts/server/http.ts) and is a resource
 * route (React Router checks the Origin of page actions only): the signed token in the address
 * is the proof, and all it can do is turn this person's announcement e-mails off.
 */
export async function action({ request }: Route.ActionArgs) {
	const userId = userOfUnsubscribeToken(new URL(request.url).searchParams.get('token'))
	if (!userId) return data('This unsubscribe link is not valid.', { status: 400 })
	if ((await readFormData(request)).get('List-Unsubscribe') !== 'One-Click') {
		return data('Expected List-Unsubscribe=One-Click (RFC 8058).', { status: 400 })
	}
	await setAnnouncementEmails(getDb(), userId, false)
	return new Response('Unsubscribed from announcement emails.', { headers: { 'Content-Type': 'text/plain; charset=utf-8' } })
}
