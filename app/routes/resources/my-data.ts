import { createReadableStreamFromReadable } from '@react-router/node'
import { href } from 'react-router'
import { personalDataArchive, personalDataFileName } from '#app/models/accounts/personal-data.server.ts'
import { getSchoolDetails } from '#app/models/site/site-settings.server.ts'
import { textResponse } from '#app/services/storage/file-response.server.ts'
import { getStorage } from '#app/services/storage/index.server.ts'
import { contentDisposition } from '#app/services/storage/keys.ts'
import { requireUser } from '#app/utils/auth.server.ts'
import { getDb } from '#app/utils/db.server.ts'
import { readFormData } from '#app/utils/form-data.server.ts'
import { consumeRateLimit } from '#app/utils/rate-limit.server.ts'
import { redirectWithToast } from '#app/utils/toast.server.ts'
import type { Route } from './+types/my-data'

/** The archive is made by the Settings form's POST only. */
export async function loader() {
	return new Response('Method not allowed.', { status: 405, headers: { Allow: 'POST', 'Content-Type': 'text/plain' } })
}

/**
 * "Download my data" (docs/decisions/067): the signed-in person's own archive, streamed as it is
 * written. A POST, as every request that counts against a limit is; the Settings form posts it
 * without scripts and the browser saves the answer.
 */
export async function action({ request }: Route.ActionArgs) {
	const user = await requireUser(request)
	const formData = await readFormData(request)
	if (formData.get('intent') !== 'download') return textResponse('Use the Download my data button in Settings.', 400)
	const limit = await consumeRateLimit('personalDataDownload', user.id)
	if (!limit.allowed) {
		return redirectWithToast(href('/dashboard/settings'), {
			type: 'error',
			title: 'Download limit reached',
			description: `You have downloaded your data several times this hour. Try again in ${Math.ceil(limit.retryAfterSeconds / 60)} minutes.`,
		})
	}
	const db = getDb()
	const now = new Date()
	const school = await getSchoolDetails(db)
	const archive = await personalDataArchive(db, getStorage(), { userId: user.id, school: school.name, now })
	if (!archive) return textResponse('Account not found', 404)
	return new Response(createReadableStreamFromReadable(archive), {
		headers: {
			'Content-Type': 'application/zip',
			'Content-Disposition': contentDisposition('attachment', personalDataFileName(now)),
			'Cache-Control': 'private, no-store',
			'X-Content-Type-Options': 'nosniff',
		},
	})
}
