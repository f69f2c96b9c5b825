import { redirect } from 'react-router'
import { requireStaff } from '#app/utils/auth.server.ts'
import { BROADCAST_PATH, CONTACT_PATH, DIRECT_PATH } from './+shared/paths.ts'
import type { Route } from './+types/index'

const CHANNELS: Record<string, string> = { broadcast: BROADCAST_PATH, direct: DIRECT_PATH, contact: CONTACT_PATH }

/** The channels were once tabs of this page (`?tab=`): such a link, or none, lands on its channel. */
export async function loader({ request }: Route.LoaderArgs) {
	await requireStaff(request)
	const params = new URL(request.url).searchParams
	const target = CHANNELS[params.get('tab') ?? ''] ?? BROADCAST_PATH
	params.delete('tab')
	const query = params.toString()
	throw redirect(query ? `${target}?${query}` : target)
}
