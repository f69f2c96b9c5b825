import { parseWithZod } from '@conform-to/zod/v4'
import { data, href, useNavigation } from 'react-router'
import { InviteForm } from '#app/components/admin/invite-form.tsx'
import { RouteDialog } from '#app/components/ui/dialog.tsx'
import { InvitationError, type InviteResult, inviteUser } from '#app/models/accounts/invitations.server.ts'
import { InviteSchema } from '#app/models/accounts/invitations.ts'
import { CourseStaffError } from '#app/models/courses/course-staff.server.ts'
import { listCourseOptions } from '#app/models/materials/materials-admin.server.ts'
import { requireAdmin } from '#app/utils/auth.server.ts'
import { getDb } from '#app/utils/db.server.ts'
import { readFormData } from '#app/utils/form-data.server.ts'
import { pageTitle } from '#app/utils/page-meta.ts'
import { redirectWithToast } from '#app/utils/toast.server.ts'
import type { Route } from './+types/user-invite'

const USERS_PATH = href('/dashboard/admin/users')
const INVITE_PATH = href('/dashboard/admin/users/invite')

function resultToast(result: InviteResult, email: string) {
	if (result.kind === 'invited') {
		return result.resent
			? { type: 'success' as const, title: `Invitation sent again to ${email}`, description: 'The earlier link no longer works.' }
			: { type: 'success' as const, title: `Invitation sent to ${email}` }
	}
	if (result.kind === 'updated') return { type: 'success' as const, title: `${email} updated`, description: 'They were told by email.' }
	return { type: 'info' as const, title: `${email} already has this role and these courses` }
}

export async function loader({ request }: Route.LoaderArgs) {
	await requireAdmin(request)
	return { courses: await listCourseOptions(getDb()) }
}

export async function action({ request }: Route.ActionArgs) {
	const admin = await requireAdmin(request)
	const submission = parseWithZod(await readFormData(request), { schema: InviteSchema })
	if (submission.status !== 'success') return data({ result: submission.reply() }, { status: 400 })
	try {
		const result = await inviteUser(getDb(), admin.id, submission.value)
		return redirectWithToast(USERS_PATH, resultToast(result, submission.value.email.toLowerCase()))
	} catch (error) {
		if (error instanceof InvitationError) return data({ result: submission.reply({ formErrors: [error.message] }) }, { status: 400 })
		if (error instanceof CourseStaffError) {
			return data({ result: submission.reply({ fieldErrors: { courseIds: [error.message] } }) }, { status: 400 })
		}
		console.error('[admin] invitation failed', error instanceof Error ? error.message : error)
		return data({ result: submission.reply({ formErrors: ['The invitation could not be sent. Please try again.'] }) }, { status: 503 })
	}
}

export default function InviteUserDialog({ loaderData, actionData }: Route.ComponentProps) {
	const navigation = useNavigation()
	const saving = navigation.state === 'submitting' && navigation.formAction === INVITE_PATH
	return (
		<RouteDialog title="Invite User" description="They get an e-mail; the account is theirs once they set a password." closeTo={USERS_PATH}>
			<InviteForm action={INVITE_PATH} closeTo={USERS_PATH} courses={loaderData.courses} lastResult={actionData?.result} saving={saving} />
		</RouteDialog>
	)
}

export const meta: Route.MetaFunction = () => pageTitle('Invite User')

export { GeneralErrorBoundary as ErrorBoundary } from '#app/components/error-boundary.tsx'
