import { parseWithZod } from '@conform-to/zod/v4'
import { href, Outlet } from 'react-router'
import { z } from 'zod'
import { ConfirmDialog } from '#app/components/admin/confirm-dialog.tsx'
import { ListErrorBoundary } from '#app/components/admin/list-error-boundary.tsx'
import { SearchForm } from '#app/components/admin/search-form.tsx'
import { LocalDate } from '#app/components/local-date.tsx'
import { Badge } from '#app/components/ui/badge.tsx'
import { ButtonLink } from '#app/components/ui/button.tsx'
import { Card } from '#app/components/ui/card.tsx'
import { EmailText } from '#app/components/ui/email-text.tsx'
import { RowsTable } from '#app/components/ui/rows-table.tsx'
import { TableCard } from '#app/components/ui/table.tsx'
import { AdminUserError, listStudents, promoteToAdmin, removeUser, USER_LIST_LIMIT } from '#app/models/accounts/users-admin.server.ts'
import { requireAdmin } from '#app/utils/auth.server.ts'
import { getDb } from '#app/utils/db.server.ts'
import { getEnv } from '#app/utils/env.server.ts'
import { readFormData } from '#app/utils/form-data.server.ts'
import { searchText } from '#app/utils/misc.ts'
import { pageTitle } from '#app/utils/page-meta.ts'
import { redirectWithToast } from '#app/utils/toast.server.ts'
import type { Route } from './+types/users'

const USERS_PATH = href('/dashboard/admin/users')

const UserActionSchema = z.discriminatedUnion('intent', [
	z.object({ intent: z.literal('remove'), userId: z.uuid() }),
	z.object({ intent: z.literal('make-admin'), userId: z.uuid() }),
])

function usersPath(query: string) {
	return query ? `${USERS_PATH}?q=${encodeURIComponent(query)}` : USERS_PATH
}

export async function loader({ request }: Route.LoaderArgs) {
	await requireAdmin(request)
	const url = new URL(request.url)
	const query = searchText(url.searchParams)
	const { users, truncated } = await listStudents(getDb(), { query })
	const adminEmails = getEnv().ADMIN_EMAILS
	const confirm = url.searchParams.get('confirm') ?? ''
	const removing = confirm.startsWith('remove-') ? (users.find((user) => `remove-${user.id}` === confirm) ?? null) : null
	const promoting = confirm.startsWith('promote-')
		? (users.find((user) => `promote-${user.id}` === confirm && adminEmails.includes(user.email)) ?? null)
		: null
	return {
		query,
		truncated,
		limit: USER_LIST_LIMIT,
		users: users.map((user) => ({ ...user, canMakeAdmin: adminEmails.includes(user.email) })),
		removing,
		promoting,
	}
}

export async function action({ request }: Route.ActionArgs) {
	const admin = await requireAdmin(request)
	const back = usersPath(searchText(new URL(request.url).searchParams))
	const formData = await readFormData(request)
	const submission = parseWithZod(formData, { schema: UserActionSchema })
	const failure = formData.get('intent') === 'make-admin' ? 'Failed to make user admin' : 'Failed to remove user'
	if (submission.status !== 'success') {
		return redirectWithToast(back, { type: 'error', title: `${failure}: Invalid request` })
	}
	const { intent, userId } = submission.value
	try {
		if (intent === 'make-admin') {
			await promoteToAdmin(getDb(), admin.id, userId, getEnv().ADMIN_EMAILS)
			return redirectWithToast(back, { type: 'success', title: 'User promoted to admin successfully!' })
		}
		const { filesRemoved } = await removeUser(getDb(), admin.id, userId)
		return redirectWithToast(
			back,
			filesRemoved
				? { type: 'success', title: 'User removed successfully' }
				: {
						type: 'warning',
						title: 'User removed successfully',
						description: 'Some of their files could not be removed from storage and remain there.',
					},
		)
	} catch (error) {
		const reason = error instanceof AdminUserError ? error.message : 'An unexpected error occurred'
		if (!(error instanceof AdminUserError)) console.error(`[admin] ${failure}`, error instanceof Error ? error.message : error)
		return redirectWithToast(back, { type: 'error', title: `${failure}: ${reason}` })
	}
}

export default function ManageUsers({ loaderData }: Route.ComponentProps) {
	const { users, query, truncated, limit, removing, promoting } = loaderData
	const back = usersPath(query)
	const withQuery = (extra: string) => `${USERS_PATH}?${query ? `q=${encodeURIComponent(query)}&` : ''}${extra}`

	return (
		<>
			<Outlet />
			{promoting ? (
				<ConfirmDialog
					title="Make Admin"
					description={`Make ${promoting.name || 'this user'} (${promoting.email}) an administrator?`}
					closeTo={back}
					fields={{ intent: 'make-admin', userId: promoting.id }}
					confirmLabel="Make Admin"
					busyLabel="Promoting..."
				>
					<p className="text-sm text-slate-700">
						They will be able to manage courses, users, enrollments, materials and messages, and see every student's details.
					</p>
				</ConfirmDialog>
			) : null}
			{removing ? (
				<ConfirmDialog
					title="Remove User"
					description={`Are you sure you want to remove ${removing.name || 'this user'} (${removing.email})? This action cannot be undone.`}
					closeTo={back}
					fields={{ intent: 'remove', userId: removing.id }}
					confirmLabel="Remove"
					busyLabel="Removing..."
				>
					<p className="text-sm text-slate-700">
						Their account, sessions, enrollments, messages and uploaded files will be permanently deleted. Payment records are kept.
					</p>
				</ConfirmDialog>
			) : null}
			<h1 className="text-2xl font-bold text-ink">Manage Users</h1>
			<div className="flex flex-col gap-3 sm:flex-row sm:items-end sm:justify-between">
				<SearchForm action={USERS_PATH} label="Search users" placeholder="Search by name or email..." query={query} />
				<ButtonLink to={href('/dashboard/admin/users/invite')} preventScrollReset>
					Invite User
				</ButtonLink>
			</div>

			{users.length === 0 ? (
				<Card className="p-8 text-center text-slate-700">{query ? 'No matching users found' : 'No users found'}</Card>
			) : (
				<TableCard>
					<RowsTable caption="Students" columns={['Name', 'Email', 'Role', 'Registered Date', 'Actions']}>
						{users.map((user) => (
							<tr key={user.id}>
								<td className="px-4 py-3 font-medium text-ink">{user.name || 'Unknown User'}</td>
								<td className="px-4 py-3 text-slate-700">
									<EmailText email={user.email} />
								</td>
								<td className="px-4 py-3">
									<Badge tone="gray">{user.role}</Badge>
								</td>
								<td className="px-4 py-3 whitespace-nowrap text-slate-700">
									<LocalDate value={user.createdAt} />
								</td>
								<td className="px-4 py-3">
									<div className="flex flex-wrap gap-2">
										{user.canMakeAdmin ? (
											// Giving someone the whole admin area is asked first, as removing is.
											<ButtonLink to={withQuery(`confirm=promote-${user.id}`)} preventScrollReset size="sm" variant="outline">
												Make Admin<span className="sr-only"> {user.name}</span>
											</ButtonLink>
										) : null}
										<ButtonLink to={withQuery(`confirm=remove-${user.id}`)} preventScrollReset size="sm" variant="destructive">
											Remove<span className="sr-only"> {user.name}</span>
										</ButtonLink>
									</div>
								</td>
							</tr>
						))}
					</RowsTable>
				</TableCard>
			)}
			{truncated ? <p className="text-sm text-slate-600">Showing the newest {limit} students. Search to find others.</p> : null}
		</>
	)
}

export const meta: Route.MetaFunction = () => pageTitle('Manage Users')

export function ErrorBoundary() {
	return <ListErrorBoundary title="Failed to load users. Please try again later." retryLabel="Try Again" />
}
