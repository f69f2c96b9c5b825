import { getFormProps, getInputProps, getTextareaProps, useForm } from '@conform-to/react'
import { parseWithZod } from '@conform-to/zod/v4'
import { data, Form, useNavigation } from 'react-router'
import { Alert } from '#app/components/ui/alert.tsx'
import { Button } from '#app/components/ui/button.tsx'
import { RouteDialog } from '#app/components/ui/dialog.tsx'
import { CheckboxField, Field, TextareaField } from '#app/components/ui/field.tsx'
import { MAX_NOTE_LENGTH, MAX_SESSION_MINUTES } from '#app/models/sessions/live-sessions.ts'
import { changeSession, listAdminSessions, SessionChangeError, setWeekOpening } from '#app/models/sessions/live-sessions-admin.server.ts'
import { SessionEditSchema } from '#app/models/sessions/session-forms.ts'
import { sessionTimesOn } from '#app/models/sessions/session-schedule.server.ts'
import { requireCourseStaff } from '#app/routes/admin/+shared/course-access.server.ts'
import { materialsPath } from '#app/routes/admin/+shared/paths.ts'
import { getDb } from '#app/utils/db.server.ts'
import { readFormData } from '#app/utils/form-data.server.ts'
import { pageTitle } from '#app/utils/page-meta.ts'
import { parseRowId } from '#app/utils/row-id.ts'
import { redirectWithToast } from '#app/utils/toast.server.ts'
import type { Route } from './+types/session-edit'

/**
 * The live session of the address, found among the sessions of the course of the address only, for
 * an admin or one of the course's instructors: another course's session id answers 404 (docs/decisions/056).
 */
async function requireSession(request: Request, params: { courseId?: string; liveSessionId?: string }) {
	const { user, courseId } = await requireCourseStaff(request, params.courseId)
	const sessionId = parseRowId(params.liveSessionId)
	const sessions = sessionId ? await listAdminSessions(getDb(), courseId) : []
	const session = sessions.find((candidate) => candidate.id === sessionId)
	if (!session) throw data('Session not found', { status: 404 })
	return { user, courseId, session }
}

export async function loader({ request, params }: Route.LoaderArgs) {
	const { courseId, session } = await requireSession(request, params)
	return { courseId, session }
}

const TOASTS = {
	move: 'Session saved; students were emailed the new time',
	cancel: 'Session cancelled; students were emailed',
	restore: 'Session restored; students were emailed',
	'open-now': 'The week is open to students now',
	'open-default': 'The week opens on the course schedule again',
	'open-at': 'Opening time saved',
} as const

export async function action({ request, params }: Route.ActionArgs) {
	const { user: admin, courseId, session } = await requireSession(request, params)
	const submission = parseWithZod(await readFormData(request), { schema: SessionEditSchema })
	if (submission.status !== 'success') {
		return data({ intent: submission.payload.intent, result: submission.reply() }, { status: 400 })
	}
	const value = submission.value
	const base = { adminId: admin.id, courseId, sessionId: session.id }
	const db = getDb()
	try {
		if (value.intent === 'move' || value.intent === 'cancel' || value.intent === 'restore') {
			const change =
				value.intent === 'move'
					? { kind: 'move' as const, date: value.date, startTime: value.startTime, minutes: value.minutes, note: value.note }
					: value.intent === 'cancel'
						? { kind: 'cancel' as const, note: value.note }
						: { kind: 'restore' as const }
			await changeSession(db, { ...base, change })
		} else {
			const at =
				value.intent === 'open-now'
					? new Date()
					: value.intent === 'open-at'
						? sessionTimesOn(value.opensDate, value.opensTime, 5, session.timeZone).startsAt
						: null
			await setWeekOpening(db, { ...base, at })
		}
	} catch (error) {
		if (!(error instanceof SessionChangeError)) throw error
		return data({ intent: value.intent, result: submission.reply({ formErrors: [error.message] }) }, { status: 400 })
	}
	return redirectWithToast(materialsPath(courseId), { type: 'success', title: TOASTS[value.intent] })
}

export default function EditSession({ loaderData, actionData }: Route.ComponentProps) {
	const { courseId, session } = loaderData
	const closeTo = materialsPath(courseId)
	const action = `${closeTo}/sessions/${session.id}`
	const navigation = useNavigation()
	const busy = navigation.state === 'submitting' && navigation.formAction === action ? navigation.formData?.get('intent') : null
	const lastResult = (intent: string) => (actionData?.intent === intent ? actionData.result : undefined)
	const [moveForm, moveFields] = useForm<{ date: string; startTime: string; minutes: string; note: string }>({
		id: `move-session-${session.id}`,
		lastResult: lastResult('move'),
		defaultValue: { date: session.date, startTime: session.startTime, minutes: String(session.minutes), note: session.note ?? '' },
		shouldRevalidate: 'onInput',
	})
	const [cancelForm, cancelFields] = useForm<{ note: string; confirm: boolean }>({
		id: `cancel-session-${session.id}`,
		lastResult: lastResult('cancel'),
	})
	const [openForm, openFields] = useForm<{ opensDate: string; opensTime: string }>({
		id: `open-week-${session.id}`,
		lastResult: lastResult('open-at'),
	})
	const zone = session.timeZone.replaceAll('_', ' ')
	return (
		<RouteDialog title={`Week ${session.weekNumber} Live Session`} description={session.when} closeTo={closeTo} size="lg">
			<div className="space-y-6">
				{session.status === 'cancelled' ? (
					<Alert tone="warning" title="This session is cancelled">
						{session.note ?? 'No note was given.'}
					</Alert>
				) : null}
				{session.over ? <Alert tone="info">This session is over; it can no longer be changed.</Alert> : null}
				{!session.over ? (
					<section aria-labelledby="move-session-heading" className="space-y-3">
						<h3 id="move-session-heading" className="text-base font-semibold text-ink">
							Move or shorten
						</h3>
						<Form method="post" action={action} preventScrollReset {...getFormProps(moveForm)} className="space-y-4">
							<input type="hidden" name="intent" value="move" />
							{moveForm.errors?.length ? <Alert tone="error">{moveForm.errors[0]}</Alert> : null}
							<div className="grid gap-4 sm:grid-cols-3">
								<Field
									label="Date"
									errors={moveFields.date.errors}
									inputProps={{ ...getInputProps(moveFields.date, { type: 'date' }), required: true }}
								/>
								<Field
									label={`Start (${zone})`}
									errors={moveFields.startTime.errors}
									inputProps={{ ...getInputProps(moveFields.startTime, { type: 'time' }), required: true }}
								/>
								<Field
									label="Length (minutes)"
									errors={moveFields.minutes.errors}
									inputProps={{
										...getInputProps(moveFields.minutes, { type: 'number' }),
										min: 5,
										max: MAX_SESSION_MINUTES,
										required: true,
									}}
								/>
							</div>
							<TextareaField
								label="Note to students (optional)"
								errors={moveFields.note.errors}
								textareaProps={{ ...getTextareaProps(moveFields.note), maxLength: MAX_NOTE_LENGTH, rows: 2 }}
							/>
							<Button type="submit" disabled={busy === 'move'}>
								{busy === 'move'
									? 'Saving...'
									: session.status === 'cancelled'
										? 'Reschedule and notify students'
										: 'Save and notify students'}
							</Button>
						</Form>
					</section>
				) : null}
				{!session.over && session.status === 'scheduled' ? (
					<section aria-labelledby="cancel-session-heading" className="space-y-3 border-t border-slate-200 pt-4">
						<h3 id="cancel-session-heading" className="text-base font-semibold text-ink">
							Cancel this session
						</h3>
						<Form method="post" action={action} preventScrollReset {...getFormProps(cancelForm)} className="space-y-4">
							<input type="hidden" name="intent" value="cancel" />
							{cancelForm.errors?.length ? <Alert tone="error">{cancelForm.errors[0]}</Alert> : null}
							<TextareaField
								label="Note to students (optional)"
								errors={cancelFields.note.errors}
								textareaProps={{ ...getTextareaProps(cancelFields.note), maxLength: MAX_NOTE_LENGTH, rows: 2 }}
							/>
							<CheckboxField
								label={`Yes, cancel the week ${session.weekNumber} session and email every student`}
								errors={cancelFields.confirm.errors}
								inputProps={{ ...getInputProps(cancelFields.confirm, { type: 'checkbox' }), required: true }}
							/>
							<Button type="submit" variant="destructive" disabled={busy === 'cancel'}>
								{busy === 'cancel' ? 'Cancelling...' : 'Cancel Session'}
							</Button>
						</Form>
					</section>
				) : null}
				{!session.over && session.status === 'cancelled' ? (
					<Form method="post" action={action} preventScrollReset className="border-t border-slate-200 pt-4">
						<input type="hidden" name="intent" value="restore" />
						<Button type="submit" variant="outline" disabled={busy === 'restore'}>
							{busy === 'restore' ? 'Restoring...' : 'Restore at its time and notify students'}
						</Button>
					</Form>
				) : null}
				<section aria-labelledby="week-opening-heading" className="space-y-3 border-t border-slate-200 pt-4">
					<h3 id="week-opening-heading" className="text-base font-semibold text-ink">
						Week {session.weekNumber} files
					</h3>
					<p className="text-sm text-slate-700">
						{session.opening}
						{session.openedByAdmin ? ' (set by an admin)' : ' (the course default)'}
					</p>
					<div className="flex flex-wrap gap-2">
						{session.opening !== 'Open' ? (
							<Form method="post" action={action} preventScrollReset>
								<input type="hidden" name="intent" value="open-now" />
								<Button type="submit" size="sm" disabled={busy === 'open-now'}>
									Open Now
								</Button>
							</Form>
						) : null}
						{session.openedByAdmin ? (
							<Form method="post" action={action} preventScrollReset>
								<input type="hidden" name="intent" value="open-default" />
								<Button type="submit" size="sm" variant="outline" disabled={busy === 'open-default'}>
									Use the Course Default
								</Button>
							</Form>
						) : null}
					</div>
					<Form
						method="post"
						action={action}
						preventScrollReset
						{...getFormProps(openForm)}
						className="grid items-end gap-4 sm:grid-cols-[1fr_1fr_auto]"
					>
						<input type="hidden" name="intent" value="open-at" />
						<Field
							label="Opens on"
							errors={openFields.opensDate.errors}
							inputProps={{ ...getInputProps(openFields.opensDate, { type: 'date' }), required: true }}
						/>
						<Field
							label={`At (${zone})`}
							errors={openFields.opensTime.errors}
							inputProps={{ ...getInputProps(openFields.opensTime, { type: 'time' }), required: true }}
						/>
						<Button type="submit" size="sm" variant="outline" disabled={busy === 'open-at'}>
							Set Opening
						</Button>
					</Form>
				</section>
			</div>
		</RouteDialog>
	)
}

export const meta: Route.MetaFunction = () => pageTitle('Live Session')

export { GeneralErrorBoundary as ErrorBoundary } from '#app/components/error-boundary.tsx'
