import { getFormProps, getInputProps, type SubmissionResult, useForm } from '@conform-to/react'
import { parseWithZod } from '@conform-to/zod/v4'
import { Form } from 'react-router'
import { CoursePageHeading } from '#app/components/admin/course-page-heading.tsx'
import { LocalDate } from '#app/components/local-date.tsx'
import { Badge } from '#app/components/ui/badge.tsx'
import { Button, ButtonLink } from '#app/components/ui/button.tsx'
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '#app/components/ui/card.tsx'
import { EmailText } from '#app/components/ui/email-text.tsx'
import { EmptyState } from '#app/components/ui/empty-state.tsx'
import { Field } from '#app/components/ui/field.tsx'
import { TableCard, TableHead } from '#app/components/ui/table.tsx'
import { OfferHoursSchema, WAITLIST_STATUS_LABELS } from '#app/models/enrollment/waitlist.ts'
import type { WaitlistStatus } from '#db/types.ts'

export type QueueEntry = {
	id: number
	name: string
	email: string
	status: WaitlistStatus
	position: number | null
	joinedAt: string
	offerExpiresAt: string | null
}

type QueueCourse = { id: number; title: string; capacity: number; taken: number; offerHours: number }

/**
 * A course's waitlist: the people in line (position, name, e-mail, joined, status), the course's
 * offer time and the entries that ended. For admins, plain-form buttons move them, offer a seat or
 * remove them, and the offer time is a form; `readOnly` (the course's instructor) shows neither.
 */
export function WaitlistQueue({
	course,
	live,
	ended,
	back,
	lastResult,
	readOnly = false,
}: {
	course: QueueCourse
	live: QueueEntry[]
	ended: QueueEntry[]
	back: string
	lastResult?: SubmissionResult<string[]>
	readOnly?: boolean
}) {
	const waiting = live.filter((entry) => entry.status === 'waiting')
	return (
		<div className="space-y-6">
			<div className="flex flex-wrap items-end justify-between gap-3">
				<CoursePageHeading page="Waitlist" courseTitle={course.title}>
					{course.taken} of {course.capacity} seats taken (open offers included) · {waiting.length} waiting
				</CoursePageHeading>
				{readOnly ? (
					<p className="text-sm text-slate-600">An offer holds a seat for {course.offerHours} hours.</p>
				) : (
					<OfferHoursForm hours={course.offerHours} action={back} lastResult={lastResult} />
				)}
			</div>
			{live.length === 0 ? (
				<EmptyState
					title="Nobody is on this waitlist"
					description="People who join the waitlist of this course appear here in line order."
				/>
			) : (
				<TableCard>
					<table className="w-full text-left text-sm">
						<TableHead
							caption={`Waitlist of ${course.title}`}
							columns={['Position', 'Name', 'E-mail', 'Joined', 'Status', ...(readOnly ? [] : ['Actions'])]}
						/>
						<tbody className="divide-y divide-slate-200">
							{live.map((entry, index) => (
								<tr key={entry.id}>
									<td className="px-4 py-3 font-semibold">{entry.position ?? '—'}</td>
									<td className="px-4 py-3">{entry.name}</td>
									<td className="px-4 py-3">
										<EmailText email={entry.email} />
									</td>
									<td className="px-4 py-3 whitespace-nowrap">
										<LocalDate value={entry.joinedAt} />
									</td>
									<td className="px-4 py-3">
										<Badge tone={entry.status === 'offered' ? 'green' : 'yellow'}>{WAITLIST_STATUS_LABELS[entry.status]}</Badge>
										{entry.offerExpiresAt ? (
											<span className="mt-1 block text-xs text-slate-600">
												until <LocalDate value={entry.offerExpiresAt} time />
											</span>
										) : null}
									</td>
									{readOnly ? null : (
										<td className="px-4 py-3">
											<div className="flex flex-wrap gap-2">
												{entry.status === 'waiting' ? (
													<>
														<MoveButton
															entry={entry}
															direction="up"
															disabled={index === 0 || live[index - 1]?.status !== 'waiting'}
															action={back}
														/>
														<MoveButton entry={entry} direction="down" disabled={live[index + 1]?.status !== 'waiting'} action={back} />
														<ButtonLink to={`${back}?confirm=offer-${entry.id}`} preventScrollReset size="sm" variant="outline">
															Offer Seat<span className="sr-only"> to {entry.name}</span>
														</ButtonLink>
													</>
												) : null}
												<ButtonLink to={`${back}?confirm=remove-${entry.id}`} preventScrollReset size="sm" variant="destructive">
													Remove<span className="sr-only"> {entry.name}</span>
												</ButtonLink>
											</div>
										</td>
									)}
								</tr>
							))}
						</tbody>
					</table>
				</TableCard>
			)}
			{ended.length > 0 ? (
				<Card>
					<CardHeader>
						<CardTitle as="h2">Earlier entries</CardTitle>
						<CardDescription>Offers claimed, expired or declined, and people who left or were removed.</CardDescription>
					</CardHeader>
					<CardContent>
						<ul className="divide-y divide-slate-200 text-sm">
							{ended.map((entry) => (
								<li key={entry.id} className="flex flex-wrap items-center justify-between gap-2 py-2">
									<span>
										{entry.name} · <EmailText email={entry.email} />
									</span>
									<Badge tone="gray">{WAITLIST_STATUS_LABELS[entry.status]}</Badge>
								</li>
							))}
						</ul>
					</CardContent>
				</Card>
			) : null}
		</div>
	)
}

function MoveButton({
	entry,
	direction,
	disabled,
	action,
}: {
	entry: QueueEntry
	direction: 'up' | 'down'
	disabled: boolean
	action: string
}) {
	return (
		<Form method="post" action={action} preventScrollReset>
			<input type="hidden" name="intent" value="move" />
			<input type="hidden" name="entryId" value={entry.id} />
			<input type="hidden" name="direction" value={direction} />
			<Button type="submit" size="sm" variant="outline" disabled={disabled}>
				{direction === 'up' ? 'Move Up' : 'Move Down'}
				<span className="sr-only"> {entry.name}</span>
			</Button>
		</Form>
	)
}

function OfferHoursForm({ hours, action, lastResult }: { hours: number; action: string; lastResult?: SubmissionResult<string[]> }) {
	const [form, fields] = useForm({
		id: 'offer-hours',
		lastResult,
		defaultValue: { hours: String(hours) },
		shouldValidate: 'onBlur',
		onValidate: ({ formData }) => parseWithZod(formData, { schema: OfferHoursSchema }),
	})
	return (
		<Form method="post" action={action} {...getFormProps(form)} className="flex items-end gap-2">
			<input type="hidden" name="intent" value="offer-hours" />
			<Field
				label="Offer holds a seat for (hours)"
				errors={fields.hours.errors}
				inputProps={{ ...getInputProps(fields.hours, { type: 'number' }), min: 1, max: 720, className: 'w-24' }}
			/>
			<Button type="submit" variant="outline">
				Save
			</Button>
		</Form>
	)
}
