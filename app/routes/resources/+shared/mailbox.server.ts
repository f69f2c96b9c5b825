import { data } from 'react-router'
import { isMailboxAvailable } from '#app/services/mail/index.server.ts'
import { requireAdmin } from '#app/utils/auth.server.ts'
import { getEnv } from '#app/utils/env.server.ts'

/**
 * The development mailbox and its mails exist only while mail stays in the outbox; they hold
 * password-reset links, so in production (opted in to the embedded defaults) only an admin reads them.
 */
export async function requireMailboxReader(request: Request) {
	const env = getEnv()
	if (!isMailboxAvailable(env)) throw data(null, { status: 404 })
	if (env.NODE_ENV === 'production') await requireAdmin(request)
}
