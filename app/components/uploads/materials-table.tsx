import { Link } from 'react-router'
import { ActionList } from '#app/components/ui/action-list.tsx'
import { Badge } from '#app/components/ui/badge.tsx'
import { ButtonLink } from '#app/components/ui/button.tsx'
import { ScrollingTable, TableHead } from '#app/components/ui/table.tsx'
import type { AdminWeek } from '#app/models/materials/materials-admin.ts'
import { FileKindIcon } from './file-icon.tsx'

/**
 * A course's weeks and their materials, with the edit and delete links of each. Each file is a
 * title line with its links together beneath, and the week's buttons never wrap inside
 * themselves, so nothing lands on a line of its own at any width; on a phone the table scrolls
 * sideways and says so.
 */
export function MaterialsTable({ weeks, path }: { weeks: AdminWeek[]; path: string }) {
	return (
		<ScrollingTable className="-mx-5 sm:mx-0">
			<table className="min-w-full text-left text-sm">
				<TableHead caption="Weeks and their materials" columns={['Week', 'Topic', 'Zoom Link', 'Files', 'Actions']} />
				<tbody className="divide-y divide-slate-100 align-top">
					{weeks.map((week) => (
						<tr key={week.id}>
							<td className="px-4 py-3 font-medium whitespace-nowrap text-ink">Week {week.weekNumber}</td>
							<td className="min-w-40 px-4 py-3 text-slate-800">{week.topic}</td>
							<td className="px-4 py-3">
								{week.meetingLink ? (
									<>
										<a
											href={week.meetingLink}
											target="_blank"
											rel="noopener noreferrer"
											title={week.meetingLink}
											className="block max-w-48 truncate font-medium text-brand-700 underline-offset-4 hover:underline"
										>
											{week.meetingLink}
										</a>
										{week.zoomLink ? null : <span className="text-xs whitespace-nowrap text-slate-600">The course's link</span>}
									</>
								) : (
									<span className="whitespace-nowrap text-slate-600">No link</span>
								)}
							</td>
							<td className="min-w-60 px-4 py-3">
								{week.items.length === 0 ? (
									<span className="text-slate-600">No files</span>
								) : (
									<ul className="space-y-3">
										{week.items.map((item) => (
											<li key={item.id} className="flex items-start gap-2">
												<FileKindIcon kind={item.kind} />
												<div className="min-w-0 flex-1 space-y-0.5">
													<p className="flex flex-wrap items-center gap-2">
														<span className="max-w-64 truncate font-medium text-ink" title={item.title}>
															{item.title}
														</span>
														{item.category === 'recording' ? <Badge tone="blue">Recording</Badge> : null}
													</p>
													<ActionList className="flex gap-3 whitespace-nowrap">
														{item.fileName ? (
															<a
																href={`/files/materials/${item.id}?download=1`}
																className="text-brand-700 underline-offset-4 hover:underline"
															>
																Download<span className="sr-only"> {item.title}</span>
															</a>
														) : item.link ? (
															<a
																href={item.link}
																target="_blank"
																rel="noopener noreferrer"
																className="text-brand-700 underline-offset-4 hover:underline"
															>
																Open link<span className="sr-only"> {item.title} (opens in a new tab)</span>
															</a>
														) : null}
														<Link
															to={`${path}?dialog=delete-item&item=${item.id}`}
															preventScrollReset
															className="text-red-700 underline-offset-4 hover:underline"
														>
															Delete<span className="sr-only"> {item.title}</span>
														</Link>
													</ActionList>
												</div>
											</li>
										))}
									</ul>
								)}
							</td>
							<td className="px-4 py-3">
								<ActionList className="flex flex-col items-stretch gap-2 whitespace-nowrap">
									<ButtonLink to={`${path}/${week.id}/edit`} preventScrollReset size="sm" variant="outline">
										Edit All<span className="sr-only"> of week {week.weekNumber}</span>
									</ButtonLink>
									<ButtonLink to={`${path}?dialog=delete-week&week=${week.id}`} preventScrollReset size="sm" variant="destructive">
										Delete Week<span className="sr-only"> {week.weekNumber}</span>
									</ButtonLink>
								</ActionList>
							</td>
						</tr>
					))}
				</tbody>
			</table>
		</ScrollingTable>
	)
}
