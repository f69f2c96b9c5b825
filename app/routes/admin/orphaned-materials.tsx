import { useState } from 'react'
import { Form, href, useNavigation, useRevalidator } from 'react-router'
import { useHydrated } from 'remix-utils/use-hydrated'
import { RefreshLink } from '#app/components/admin/refresh-link.tsx'
import { LocalDate } from '#app/components/local-date.tsx'
import { Alert } from '#app/components/ui/alert.tsx'
import { Badge } from '#app/components/ui/badge.tsx'
import { Button } from '#app/components/ui/button.tsx'
import { RouteDialog } from '#app/components/ui/dialog.tsx'
import { CancelAndSubmit } from '#app/components/ui/dialog-buttons.tsx'
import { EmptyState } from '#app/components/ui/empty-state.tsx'
import { Spinner } from '#app/components/ui/spinner.tsx'
import { TableCard, TableHead } from '#app/components/ui/table.tsx'
import { cleanUpOrphans, findOrphanedMaterials, type OrphanGroup } from '#app/models/materials/orphans.server.ts'
import { getStorage } from '#app/services/storage/index.server.ts'
import { requireAdmin } from '#app/utils/auth.server.ts'
import { getDb } from '#app/utils/db.server.ts'
import { readFormData } from '#app/utils/form-data.server.ts'
import { pageTitle } from '#app/utils/page-meta.ts'
import { redirectWithToast } from '#app/utils/toast.server.ts'
import type { Route } from './+types/orphaned-materials'

const ORPHANS_PATH = href('/dashboard/admin/orphaned-materials')
const NOTHING_SELECTED = 'No materials selected for cleanup'
const FILES_SHOWN = 3

/** The groups a form asked for: the ticked ones, or every group when 'select all' was ticked. */
function selectedGroups(
	groups: OrphanGroup[],
	params: { getAll(name: string): FormDataEntryValue[]; get(name: string): FormDataEntryValue | null },
) {
	if (params.get('all') === '1') return groups
	const ids = new Set(params.getAll('group').map(String))
	return groups.filter((group) => ids.has(group.id))
}

export async function loader({ request }: Route.LoaderArgs) {
	await requireAdmin(request)
	const groups = await findOrphanedMaterials(getDb(), getStorage())
	const search = new URL(request.url).searchParams
	const confirming = search.get('confirm') === '1' ? selectedGroups(groups, search).map((group) => group.id) : null
	return { groups, confirming }
}

export async function action({ request }: Route.ActionArgs) {
	const admin = await requireAdmin(request)
	const formData = await readFormData(request)
	const groupIds = formData.getAll('group').map(String)
	if (groupIds.length === 0) return redirectWithToast(ORPHANS_PATH, { type: 'error', title: NOTHING_SELECTED })
	try {
		const { groups } = await cleanUpOrphans(getDb(), getStorage(), { adminId: admin.id, groupIds })
		return redirectWithToast(ORPHANS_PATH, { type: 'success', title: `Successfully cleaned up ${groups} orphaned materials` })
	} catch (error) {
		console.error('[orphans] cleanup failed', error)
		const message = error instanceof Error && error.message ? error.message : 'Unknown error'
		return redirectWithToast(ORPHANS_PATH, { type: 'error', title: `Failed to cleanup orphaned materials: ${message}` })
	}
}

export default function OrphanedMaterials({ loaderData }: Route.ComponentProps) {
	const { groups, confirming } = loaderData
	const hydrated = useHydrated()
	const revalidator = useRevalidator()
	const [picked, setPicked] = useState<ReadonlySet<string>>(new Set())
	const selected = groups.filter((group) => picked.has(group.id))
	const allSelected = groups.length > 0 && selected.length === groups.length

	function toggle(id: string, on: boolean) {
		setPicked((current) => {
			const next = new Set(current)
			if (on) next.add(id)
			else next.delete(id)
			return next
		})
	}

	return (
		<>
			{confirming !== null && confirming.length > 0 ? <ConfirmCleanup groupIds={confirming} /> : null}
			<div className="flex flex-col gap-3 sm:flex-row sm:items-start sm:justify-between">
				<div className="space-y-1">
					<h1 className="text-2xl font-bold text-ink">Orphaned Materials Cleanup</h1>
					<p className="text-slate-700">
						Stored files of course materials whose course or week was deleted, left behind when the file store could not delete them.
					</p>
				</div>
				<RefreshLink to={ORPHANS_PATH} />
			</div>
			<p className="font-semibold text-ink">Materials from deleted courses: {groups.length}</p>
			<Alert tone="info">
				These materials are inaccessible to students but still stored. Files stored within the last hour are not listed, as an upload may
				still be saving them.
			</Alert>
			{confirming !== null && confirming.length === 0 ? <Alert tone="error">{NOTHING_SELECTED}</Alert> : null}

			{revalidator.state === 'loading' ? (
				<p className="flex items-center gap-2 py-6 text-sm text-slate-700">
					<Spinner label="Loading orphaned materials..." />
					<span aria-hidden="true">Loading orphaned materials...</span>
				</p>
			) : groups.length === 0 ? (
				<EmptyState title="No orphaned materials found!" description="All materials are properly associated with existing courses." />
			) : (
				<Form method="get" action={ORPHANS_PATH} preventScrollReset className="space-y-4">
					<input type="hidden" name="confirm" value="1" />
					{!hydrated || selected.length > 0 ? (
						<Button type="submit" variant="destructive">
							{hydrated ? `Clean Up Selected (${selected.length})` : 'Clean Up Selected'}
						</Button>
					) : null}
					<TableCard>
						<table className="min-w-full text-left text-sm">
							<TableHead
								caption="Orphaned materials"
								columns={['Week', 'Topic', 'Deleted Course ID', 'Files', 'Created']}
								leading={
									<th scope="col" className="px-4 py-3">
										{/* Labels with words rather than aria-labels, which a text browser does not show. */}
										<label>
											<input
												type="checkbox"
												name="all"
												value="1"
												checked={allSelected}
												onChange={(event) => setPicked(event.currentTarget.checked ? new Set(groups.map((group) => group.id)) : new Set())}
												className="size-4 rounded border-slate-400"
											/>
											<span className="sr-only"> Select all orphaned materials</span>
										</label>
									</th>
								}
							/>
							<tbody className="divide-y divide-slate-100 align-top">
								{groups.map((group) => (
									<OrphanRow key={group.id} group={group} checked={picked.has(group.id)} onToggle={(on) => toggle(group.id, on)} />
								))}
							</tbody>
						</table>
					</TableCard>
				</Form>
			)}
		</>
	)
}

function OrphanRow({ group, checked, onToggle }: { group: OrphanGroup; checked: boolean; onToggle: (on: boolean) => void }) {
	const label = group.weekNumber !== null ? `Week ${group.weekNumber}` : `Week ID ${group.weekId}`
	const more = group.files.length - FILES_SHOWN
	return (
		<tr>
			<td className="px-4 py-3">
				<label>
					<input
						type="checkbox"
						name="group"
						value={group.id}
						checked={checked}
						onChange={(event) => onToggle(event.currentTarget.checked)}
						className="size-4 rounded border-slate-400"
					/>
					<span className="sr-only">
						{' '}
						Select {label} of course {group.courseId}
					</span>
				</label>
			</td>
			<td className="px-4 py-3 whitespace-nowrap text-ink">
				{group.weekNumber !== null ? group.weekNumber : `Unknown (week ID ${group.weekId})`}
			</td>
			<td className="px-4 py-3 text-slate-800">{group.topic ?? '—'}</td>
			<td className="px-4 py-3 text-slate-800">{group.courseId}</td>
			<td className="px-4 py-3">
				<p className="font-medium text-ink">{group.files.length} file(s)</p>
				<ul className="mt-1 space-y-1">
					{group.files.slice(0, FILES_SHOWN).map((file) => (
						<li key={file.key} className="flex items-center gap-2">
							<a
								href={`${href('/files/orphaned-materials')}?${new URLSearchParams({ key: file.key })}`}
								download
								className="max-w-[200px] truncate font-medium text-brand-700 underline-offset-4 hover:underline"
								title={file.name}
							>
								{file.name}
								<span className="sr-only"> (download)</span>
							</a>
							{file.category === 'recording' ? <Badge tone="blue">Recording</Badge> : null}
						</li>
					))}
				</ul>
				{more > 0 ? <p className="mt-1 text-slate-600">+{more} more files...</p> : null}
			</td>
			<td className="px-4 py-3 whitespace-nowrap text-slate-700">
				<LocalDate value={group.createdAt} />
			</td>
		</tr>
	)
}

function ConfirmCleanup({ groupIds }: { groupIds: string[] }) {
	const navigation = useNavigation()
	const busy = navigation.state === 'submitting' && navigation.formAction === ORPHANS_PATH
	return (
		<RouteDialog title="Confirm Cleanup" closeTo={ORPHANS_PATH} size="sm">
			<p className="text-sm text-slate-700">
				Are you sure you want to permanently delete {groupIds.length} orphaned material(s) and all their associated files? This action
				cannot be undone.
			</p>
			<Form method="post" action={ORPHANS_PATH} preventScrollReset className="mt-6 flex flex-col-reverse gap-2 sm:flex-row sm:justify-end">
				{groupIds.map((id) => (
					<input key={id} type="hidden" name="group" value={id} />
				))}
				<CancelAndSubmit cancelTo={ORPHANS_PATH} busy={busy} busyLabel="Cleaning up..." label="Delete Permanently" variant="destructive" />
			</Form>
		</RouteDialog>
	)
}

export const meta: Route.MetaFunction = () => pageTitle('Orphaned Materials Cleanup')

export { GeneralErrorBoundary as ErrorBoundary } from '#app/components/error-boundary.tsx'
