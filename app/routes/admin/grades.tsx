import { parseWithZod } from '@conform-to/zod/v4'
import { data, Form, href, Link } from 'react-router'
import { GradePanel, SubmissionDialog } from '#app/components/grading/grade-panel.tsx'
import { LocalDate } from '#app/components/local-date.tsx'
import { ActionList } from '#app/components/ui/action-list.tsx'
import { Badge } from '#app/components/ui/badge.tsx'
import { Button, ButtonLink } from '#app/components/ui/button.tsx'
import { Input, Label } from '#app/components/ui/input.tsx'
import { RowsTable } from '#app/components/ui/rows-table.tsx'
import { TableCard } from '#app/components/ui/table.tsx'
import { TabLinks } from '#app/components/ui/tabs.tsx'
import { GRADING_MESSAGES, GradeSchema, type GradingRow, type GradingTab } from '#app/models/materials/assignments.ts'
import { getSubmissionDetail, gradeSubmission, listGradingQueue } from '#app/models/materials/assignments-admin.server.ts'
import { requireStaff } from '#app/utils/auth.server.ts'
import { getDb } from '#app/utils/db.server.ts'
import { readFormData } from '#app/utils/form-data.server.ts'
import { searchText } from '#app/utils/misc.ts'
import { pageTitle } from '#app/utils/page-meta.ts'
import { parseRowId } from '#app/utils/row-id.ts'
import { redirectWithToast } from '#app/utils/toast.server.ts'
import type { Route } from './+types/grades'

const GRADES_PATH = href('/dashboard/admin/grades')

type ListState = { tab: GradingTab; query: string }

function listState(url: URL): ListState {
	return {
		tab: url.searchParams.get('tab') === 'graded' ? 'graded' : 'pending',
		query: searchText(url.searchParams),
	}
}

/** The page's URL for a list state, plus a dialog state (`grade=` or `view=`) when given. */
function gradesUrl({ tab, query }: ListState, extra?: Record<string, string>) {
	const params = new URLSearchParams()
	if (tab === 'graded') params.set('tab', 'graded')
	if (query) params.set('q', query)
	for (const [name, value] of Object.entries(extra ?? {})) params.set(name, value)
	const search = params.toString()
	return search ? `${GRADES_PATH}?${search}` : GRADES_PATH
}

/** The grading queue of the courses the visitor works on: every course for an admin, their own for an instructor. */
export async function loader({ request }: Route.LoaderArgs) {
	const staff = await requireStaff(request)
	const url = new URL(request.url)
	const state = listState(url)
	const db = getDb()
	const gradeId = parseRowId(url.searchParams.get('grade'))
	const viewId = parseRowId(url.searchParams.get('view'))
	const [queue, grading, viewing] = await Promise.all([
		listGradingQueue(db, staff, state),
		gradeId ? getSubmissionDetail(db, staff, gradeId) : null,
		viewId ? getSubmissionDetail(db, staff, viewId) : null,
	])
	return { ...state, ...queue, grading, viewing }
}

/** A submission of another course is answered as one that does not exist: nothing changes. */
export async function action({ request }: Route.ActionArgs) {
	const staff = await requireStaff(request)
	const state = listState(new URL(request.url))
	const submission = parseWithZod(await readFormData(request), { schema: GradeSchema })
	if (submission.status !== 'success') return data({ result: submission.reply() }, { status: 400 })
	const graded = await gradeSubmission(getDb(), { grader: staff, ...submission.value })
	if (!graded) return redirectWithToast(gradesUrl(state), { type: 'error', title: 'Failed to grade: the submission no longer exists.' })
	return redirectWithToast(gradesUrl(state), { type: 'success', title: GRADING_MESSAGES.graded })
}

export default function GradeAssignments({ loaderData, actionData }: Route.ComponentProps) {
	const { tab, query, rows, counts, grading, viewing } = loaderData
	const state = { tab, query }
	const back = gradesUrl(state)
	return (
		<>
			{viewing ? <SubmissionDialog submission={viewing} closeTo={back} gradeTo={gradesUrl(state, { grade: String(viewing.id) })} /> : null}
			{grading ? (
				<GradePanel
					key={grading.id}
					submission={grading}
					closeTo={back}
					action={gradesUrl(state, { grade: String(grading.id) })}
					lastResult={actionData?.result}
				/>
			) : null}
			<h1 className="text-2xl font-bold text-ink">Grade Student Assignments</h1>
			<div className="flex flex-col gap-4 sm:flex-row sm:items-end sm:justify-between">
				<TabLinks
					label="Assignment status"
					current={tab}
					tabs={[
						{ id: 'pending', label: 'Pending', count: counts.pending, to: gradesUrl({ tab: 'pending', query }) },
						{ id: 'graded', label: 'Graded', count: counts.graded, to: gradesUrl({ tab: 'graded', query }) },
					]}
				/>
				<Form method="get" action={GRADES_PATH} role="search" className="flex w-full max-w-md items-end gap-2">
					{tab === 'graded' ? <input type="hidden" name="tab" value="graded" /> : null}
					<div className="flex-1">
						<Label htmlFor="grades-search" className="sr-only">
							Search assignments
						</Label>
						<Input id="grades-search" type="search" name="q" defaultValue={query} placeholder="Search assignments..." maxLength={200} />
					</div>
					<Button type="submit" variant="outline">
						Search
					</Button>
					{query ? (
						<Link
							to={gradesUrl({ tab, query: '' })}
							className="self-center text-sm font-medium text-brand-700 underline-offset-4 hover:underline"
						>
							Clear
						</Link>
					) : null}
				</Form>
			</div>
			<TableCard>{tab === 'pending' ? <PendingTable rows={rows} state={state} /> : <GradedTable rows={rows} state={state} />}</TableCard>
		</>
	)
}

function StudentCell({ row, withCourse }: { row: GradingRow; withCourse?: boolean }) {
	return (
		<td className="px-4 py-3">
			<p className="font-medium text-ink">{row.studentName || 'Unknown User'}</p>
			<p className="break-all text-slate-600">{withCourse ? row.courseTitle : row.studentEmail}</p>
		</td>
	)
}

function EmptyRow({ columns, children }: { columns: number; children: string }) {
	return (
		<tr>
			<td colSpan={columns} className="px-4 py-8 text-center text-slate-600">
				{children}
			</td>
		</tr>
	)
}

function PendingTable({ rows, state }: { rows: GradingRow[]; state: ListState }) {
	return (
		<RowsTable caption="Pending assignments" columns={['Student', 'Course', 'Assignment', 'Submitted', 'Actions']}>
			{rows.length === 0 ? <EmptyRow columns={5}>No pending assignments found</EmptyRow> : null}
			{rows.map((row) => (
				<tr key={row.id}>
					<StudentCell row={row} />
					<td className="px-4 py-3 text-slate-700">{row.courseTitle}</td>
					<td className="px-4 py-3 text-slate-800">{row.assignmentTitle}</td>
					<td className="px-4 py-3 whitespace-nowrap text-slate-700">
						<LocalDate value={row.submittedAt} />
					</td>
					<td className="px-4 py-3">
						<RowActions row={row} state={state} primary="Grade" />
					</td>
				</tr>
			))}
		</RowsTable>
	)
}

function GradedTable({ rows, state }: { rows: GradingRow[]; state: ListState }) {
	return (
		<RowsTable caption="Graded assignments" columns={['Student', 'Assignment', 'Submitted', 'Grade', 'Actions']}>
			{rows.length === 0 ? <EmptyRow columns={5}>No graded assignments found</EmptyRow> : null}
			{rows.map((row) => (
				<tr key={row.id}>
					<StudentCell row={row} withCourse />
					<td className="px-4 py-3 text-slate-800">{row.assignmentTitle}</td>
					<td className="px-4 py-3 whitespace-nowrap text-slate-700">
						<LocalDate value={row.submittedAt} />
					</td>
					<td className="px-4 py-3">
						<Badge tone="green">{row.grade}</Badge>
					</td>
					<td className="px-4 py-3">
						<RowActions row={row} state={state} primary="Feedback" />
					</td>
				</tr>
			))}
		</RowsTable>
	)
}

function RowActions({ row, state, primary }: { row: GradingRow; state: ListState; primary: 'Grade' | 'Feedback' }) {
	const about = (
		<span className="sr-only">
			{' '}
			{row.assignmentTitle} by {row.studentName || row.studentEmail}
		</span>
	)
	return (
		<ActionList className="flex gap-2">
			<ButtonLink to={gradesUrl(state, { view: String(row.id) })} preventScrollReset size="sm" variant="outline">
				View{about}
			</ButtonLink>
			<ButtonLink to={gradesUrl(state, { grade: String(row.id) })} preventScrollReset size="sm">
				{primary}
				{about}
			</ButtonLink>
		</ActionList>
	)
}

export const meta: Route.MetaFunction = () => pageTitle('Grade Student Assignments')

export { GeneralErrorBoundary as ErrorBoundary } from '#app/components/error-boundary.tsx'
