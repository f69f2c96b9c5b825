import { href, Link } from 'react-router'
import { ButtonLink, buttonClasses } from '#app/components/ui/button.tsx'
import { TabLinks } from '#app/components/ui/tabs.tsx'
import type { CourseWeekList, MaterialListItem, WeekSession } from '#app/models/materials/materials.ts'
import { ALL_WEEKS_PARAM, listsAllWeeks, RECENT_WEEKS, type WeekTab, weekTabParam } from '#app/models/materials/materials.ts'
import { JOIN_OPENS_MINUTES_BEFORE, sessionJoinPath } from '#app/models/sessions/live-sessions.ts'
import { formatFileSize } from '#app/utils/misc.ts'
import { FileKindIcon, fileKindLabel } from '../uploads/file-icon.tsx'

function weekTabOf(searchParams: URLSearchParams, weekId: number): WeekTab {
	return searchParams.get(weekTabParam(weekId)) === 'recordings' ? 'recordings' : 'materials'
}

function dashboardWith(searchParams: URLSearchParams, name: string, value: string | null) {
	const next = new URLSearchParams(searchParams)
	if (value === null) next.delete(name)
	else next.set(name, value)
	const query = next.toString()
	return `/dashboard${query ? `?${query}` : ''}`
}

function withWeekTab(searchParams: URLSearchParams, weekId: number, tab: WeekTab) {
	return dashboardWith(searchParams, weekTabParam(weekId), tab === 'recordings' ? 'recordings' : null)
}

/**
 * The 'Course Materials' list: open weeks newest first, each with its class-session link and
 * the Class Materials / Class Recordings tabs, then one line for each week not open yet; a long
 * course lists its recent weeks with a
 * link to all of them. `searchParams` are those of the dashboard URL the links keep (the
 * course choice and the other weeks' tabs).
 */
export function WeeklyMaterials({
	list,
	searchParams,
	signedIn,
	readOnly = false,
}: {
	list: CourseWeekList | null
	searchParams: URLSearchParams
	signedIn: boolean
	/** A completed course: its weeks carry no live links, and saying "no Zoom link" would mislead. */
	readOnly?: boolean
}) {
	if (list === null) return <EmptyMessage>Please select a course to view materials.</EmptyMessage>
	const { weeks, totalWeeks } = list
	if (weeks.length === 0) return <EmptyMessage>No materials available yet.</EmptyMessage>
	return (
		<>
			<ol className="space-y-4">
				{weeks.map((week) => {
					const tab = weekTabOf(searchParams, week.id)
					const headingId = `week-${week.id}-heading`
					// A week the student cannot open yet is one line after the open ones (issue 39 point 7).
					if (week.filesHidden && week.opensOn) {
						return (
							<li key={week.id}>
								<section
									aria-labelledby={headingId}
									className="flex flex-wrap items-baseline justify-between gap-x-3 gap-y-1 rounded-lg border border-slate-200 bg-slate-50 px-4 py-2"
								>
									<h3 id={headingId} className="text-sm font-semibold text-slate-700">
										Week {week.weekNumber}: {week.topic}
									</h3>
									<p className="text-sm text-slate-600">Opens {week.opensOn}</p>
								</section>
							</li>
						)
					}
					return (
						<li key={week.id}>
							<section aria-labelledby={headingId} className="rounded-lg border border-slate-200 p-4">
								<div className="flex flex-wrap items-start justify-between gap-3">
									<div className="min-w-0 space-y-1">
										<h3 id={headingId} className="text-base font-semibold text-ink">
											Week {week.weekNumber}: {week.topic}
										</h3>
										{week.session ? <WeekSessionLine session={week.session} /> : null}
									</div>
									<JoinLink week={week} readOnly={readOnly} />
								</div>
								{week.opensOn ? (
									<p className="mt-3 rounded-md bg-amber-50 px-3 py-2 text-sm font-medium text-amber-900">
										{week.filesHidden ? `Opens ${week.opensOn}` : `Students see this week from ${week.opensOn}`}
									</p>
								) : null}
								{week.filesHidden ? null : (
									<>
										<TabLinks
											className="mt-3"
											label={`Week ${week.weekNumber} sections`}
											current={tab}
											tabs={[
												{ id: 'materials', label: 'Class Materials', to: withWeekTab(searchParams, week.id, 'materials') },
												{ id: 'recordings', label: 'Class Recordings', to: withWeekTab(searchParams, week.id, 'recordings') },
											]}
										/>
										<div className="pt-3">
											{tab === 'materials' ? (
												<ItemList items={week.materials} empty="No class materials available for this week." />
											) : signedIn ? (
												<ItemList items={week.recordings} empty="No recordings available for this week." />
											) : (
												<EmptyMessage>You need to be logged in to access class recordings.</EmptyMessage>
											)}
										</div>
									</>
								)}
							</section>
						</li>
					)
				})}
			</ol>
			{weeks.length < totalWeeks ? (
				<p className="flex flex-wrap items-center justify-between gap-3 text-sm text-slate-600">
					Showing the {weeks.length} most recent of {totalWeeks} weeks.{' '}
					<ButtonLink to={dashboardWith(searchParams, ALL_WEEKS_PARAM, 'all')} preventScrollReset variant="outline" size="sm">
						Show all {totalWeeks} weeks
					</ButtonLink>
				</p>
			) : listsAllWeeks(searchParams) && totalWeeks > RECENT_WEEKS ? (
				<p className="flex justify-end">
					<ButtonLink to={dashboardWith(searchParams, ALL_WEEKS_PARAM, null)} variant="outline" size="sm">
						Show the {RECENT_WEEKS} most recent weeks
					</ButtonLink>
				</p>
			) : null}
		</>
	)
}

function WeekSessionLine({ session }: { session: WeekSession }) {
	if (session.status === 'cancelled') {
		return (
			<p className="text-sm text-slate-700">
				<span className="line-through">{session.when}</span> <strong className="font-semibold text-red-800">Cancelled</strong>
				{session.note ? `: ${session.note}` : null}
			</p>
		)
	}
	return (
		<p className="text-sm text-slate-700">
			Live session: {session.when}
			{session.note ? ` (${session.note})` : null}
		</p>
	)
}

/**
 * The week's call link: as before for a week without a dated session; for a dated one, live from 15
 * minutes before until the end, and through the app, which records the join (docs/decisions/048).
 */
function JoinLink({ week, readOnly }: { week: CourseWeekList['weeks'][number]; readOnly: boolean }) {
	const session = week.session
	if (session?.status === 'cancelled' || readOnly) return null
	if (!week.zoomLink) return <p className="text-sm text-slate-600">No Zoom link available for this week</p>
	if (session && !session.joinOpen) {
		return session.over ? null : (
			<p className="text-sm text-slate-600">The join link opens {JOIN_OPENS_MINUTES_BEFORE} minutes before the start</p>
		)
	}
	return (
		<a
			href={session ? sessionJoinPath(session.id) : week.zoomLink}
			target="_blank"
			rel="noopener noreferrer"
			className={buttonClasses({ size: 'sm' })}
		>
			Join Class Session
			<svg aria-hidden="true" viewBox="0 0 24 24" className="size-4" fill="none" stroke="currentColor" strokeWidth="2">
				<path d="M14 4h6v6M20 4l-9 9M18 14v6H4V6h6" />
			</svg>
		</a>
	)
}

function ItemList({ items, empty }: { items: MaterialListItem[]; empty: string }) {
	if (items.length === 0) return <EmptyMessage>{empty}</EmptyMessage>
	return (
		<ul className="divide-y divide-slate-100">
			{items.map((item) => (
				<li key={item.id}>
					<Link
						to={href('/dashboard/materials/:itemId', { itemId: String(item.id) })}
						preventScrollReset
						className="flex items-center gap-3 rounded-md px-2 py-2.5 hover:bg-slate-50"
					>
						<FileKindIcon kind={item.kind} decorative />
						<span className="min-w-0 flex-1">
							{/* The space parts the two lines for a text browser; between blocks it shows nothing. */}
							<span className="block truncate font-medium text-ink">{item.title}</span>{' '}
							<span className="block text-xs text-slate-600">
								{fileKindLabel(item.kind)}
								{item.sizeBytes !== null ? ` · ${formatFileSize(item.sizeBytes)}` : ''}
							</span>
						</span>
					</Link>
				</li>
			))}
		</ul>
	)
}

function EmptyMessage({ children }: { children: React.ReactNode }) {
	return <p className="rounded-md bg-slate-50 px-3 py-4 text-center text-sm text-slate-600">{children}</p>
}
