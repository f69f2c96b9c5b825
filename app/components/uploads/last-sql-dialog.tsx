import { ButtonLink } from '#app/components/ui/button.tsx'
import { RouteDialog } from '#app/components/ui/dialog.tsx'
import { HeadedSection } from '#app/components/ui/headed-section.tsx'
import type { DeleteRecord } from '#app/models/materials/materials-admin.ts'

/** The SQL the admin's last delete ran, as the spec's 'Last SQL' dialog shows it. */
export function LastSqlDialog({ record, closeTo }: { record: DeleteRecord | null; closeTo: string }) {
	return (
		<RouteDialog
			title="Last SQL Operation"
			description="The last delete you ran on course materials, and what it removed."
			closeTo={closeTo}
			size="lg"
		>
			<div className="space-y-4 text-sm">
				<HeadedSection id="last-sql-command" title="Command" className="space-y-1">
					{record ? (
						<pre className="overflow-x-auto rounded-md bg-slate-900 p-3 text-xs whitespace-pre-wrap text-slate-50">
							{record.sql}
							{'\n\n-- parameters: '}
							{JSON.stringify(record.parameters)}
						</pre>
					) : (
						<p className="text-slate-700">No delete operation has occurred yet.</p>
					)}
				</HeadedSection>
				<HeadedSection id="last-sql-result" title="Result" className="space-y-1">
					{record ? (
						<pre className="overflow-x-auto rounded-md bg-slate-100 p-3 text-xs whitespace-pre-wrap text-ink">
							{`${record.result.length} row(s) deleted\n${JSON.stringify(record.result, null, 2)}`}
						</pre>
					) : (
						<p className="text-slate-700">No result available.</p>
					)}
				</HeadedSection>
				<div className="flex justify-end">
					<ButtonLink to={closeTo} preventScrollReset variant="outline">
						Close
					</ButtonLink>
				</div>
			</div>
		</RouteDialog>
	)
}
