import { Form, href } from 'react-router'
import { Button } from '#app/components/ui/button.tsx'
import { Card } from '#app/components/ui/card.tsx'
import { Label, Select } from '#app/components/ui/input.tsx'
import { RowsTable } from '#app/components/ui/rows-table.tsx'
import { TableCard } from '#app/components/ui/table.tsx'
import { listAuditEntities, listAuditEntries } from '#app/models/site/audit-log.server.ts'
import { describeAuditEntry } from '#app/models/site/audit-log.ts'
import { requireAdmin } from '#app/utils/auth.server.ts'
import { getDb } from '#app/utils/db.server.ts'
import { pageTitle } from '#app/utils/page-meta.ts'
import type { Route } from './+types/audit-log'

const AUDIT_PATH = href('/dashboard/admin/audit-log')
const ENTRY_LIMIT = 200

/** The kinds of row that have entries, for the filter. */
export async function loader({ request }: Route.LoaderArgs) {
	await requireAdmin(request)
	const db = getDb()
	const entities = await listAuditEntities(db)
	const requested = new URL(request.url).searchParams.get('entity') ?? ''
	const entity = entities.includes(requested) ? requested : ''
	const entries = await listAuditEntries(db, { entity: entity || undefined, limit: ENTRY_LIMIT })
	return {
		entity,
		entities,
		entries: entries.map((entry) => ({
			id: entry.id,
			action: entry.action,
			entity: entry.entity,
			entityId: entry.entity_id,
			actorName: entry.actorName,
			...describeAuditEntry(entry),
			details: entry.details === null || entry.details === undefined ? '' : JSON.stringify(entry.details),
			createdAt: entry.created_at.toISOString(),
		})),
	}
}

const timestamp = new Intl.DateTimeFormat('en-US', { dateStyle: 'medium', timeStyle: 'medium', timeZone: 'UTC' })

export default function AuditLog({ loaderData }: Route.ComponentProps) {
	const { entries, entities, entity } = loaderData
	return (
		<>
			<div>
				<h1 className="text-2xl font-bold text-ink">Audit Log</h1>
				<p className="mt-1 text-sm text-slate-600">
					The latest {ENTRY_LIMIT} changes made by administrators, newest first. Times are in UTC.
				</p>
			</div>
			<Form method="get" action={AUDIT_PATH} className="flex flex-wrap items-end gap-2">
				<div>
					<Label htmlFor="audit-entity">Kind</Label>
					<Select id="audit-entity" name="entity" defaultValue={entity} className="mt-1 w-48">
						<option value="">All kinds</option>
						{entities.map((kind) => (
							<option key={kind} value={kind}>
								{kind}
							</option>
						))}
					</Select>
				</div>
				<Button type="submit" variant="outline">
					Filter
				</Button>
			</Form>
			{entries.length === 0 ? (
				<Card className="p-8 text-center text-slate-700">No audit entries yet</Card>
			) : (
				<TableCard>
					<RowsTable caption="Audit entries" columns={['When', 'Who', 'Action', 'Kind', 'ID', 'Details']}>
						{entries.map((entry) => (
							<tr key={entry.id} className="align-top">
								<td className="px-4 py-3 whitespace-nowrap text-slate-700">
									<time dateTime={entry.createdAt}>{timestamp.format(new Date(entry.createdAt))}</time>
								</td>
								<td className="px-4 py-3 text-ink">{entry.actorName ?? 'System'}</td>
								<td className="px-4 py-3 text-ink">
									{entry.summary}
									<span className="block font-mono text-xs text-slate-500">{entry.action}</span>
								</td>
								<td className="px-4 py-3 text-slate-700">{entry.entity}</td>
								<td className="max-w-40 px-4 py-3 font-mono text-xs break-all text-slate-700">{entry.entityId ?? ''}</td>
								<td className="max-w-md px-4 py-3 text-slate-700">
									{entry.lines.length > 0 ? (
										<ul className="space-y-0.5 break-words">
											{entry.lines.map((line) => (
												<li key={line}>{line}</li>
											))}
										</ul>
									) : null}
									{entry.details ? (
										<details className="mt-1 text-xs">
											<summary className="cursor-pointer text-slate-500">Recorded data</summary>
											<code className="block font-mono break-all text-slate-600">{entry.details}</code>
										</details>
									) : null}
								</td>
							</tr>
						))}
					</RowsTable>
				</TableCard>
			)}
		</>
	)
}

export const meta: Route.MetaFunction = () => pageTitle('Audit Log')

export { GeneralErrorBoundary as ErrorBoundary } from '#app/components/error-boundary.tsx'
