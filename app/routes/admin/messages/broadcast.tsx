import { getFormProps, getInputProps, getSelectProps, getTextareaProps, useForm } from '@conform-to/react'
import { getZodConstraint, parseWithZod } from '@conform-to/zod/v4'
import { useEffect, useRef } from 'react'
import { data, Form, useLocation, useNavigation } from 'react-router'
import { useHydrated } from 'remix-utils/use-hydrated'
import { z } from 'zod'
import { AnnouncementList } from '#app/components/messages/announcement-list.tsx'
import { DeleteMessageDialog } from '#app/components/messages/delete-dialog.tsx'
import { Alert, FormErrors } from '#app/components/ui/alert.tsx'
import { Button, ButtonLink } from '#app/components/ui/button.tsx'
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '#app/components/ui/card.tsx'
import { EmptyState } from '#app/components/ui/empty-state.tsx'
import { Field, SelectField, TextareaField } from '#app/components/ui/field.tsx'
import { isCourseStaff, listCoursesOf } from '#app/models/courses/course-staff.server.ts'
import { getCourseOption } from '#app/models/materials/materials-admin.server.ts'
import { announcementReach } from '#app/models/messaging/announcement-emails.server.ts'
import { createMessage, listAnnouncements } from '#app/models/messaging/messages.server.ts'
import { announcementParts, MAX_MESSAGE_LENGTH } from '#app/models/messaging/messages.ts'
import { recordAudit } from '#app/models/site/audit-log.server.ts'
import { discardUpload, failureResponse, handleConversationIntent, receiveForm } from '#app/routes/dashboard/+shared/messages.server.ts'
import { requireStaff } from '#app/utils/auth.server.ts'
import { getDb } from '#app/utils/db.server.ts'
import { getEnv } from '#app/utils/env.server.ts'
import { hasControlCharacters } from '#app/utils/misc.ts'
import { pageTitle } from '#app/utils/page-meta.ts'
import { partialPage } from '#app/utils/page-toast.server.ts'
import { withSearch } from '#app/utils/search-links.ts'
import { actionToastHeaders, redirectWithToast } from '#app/utils/toast.server.ts'
import { fileField } from '#app/utils/upload-limit.ts'
import { BROADCAST_PATH, beforeId, confirmedId, directThreadUrl } from './+shared/paths.ts'
import type { Route } from './+types/broadcast'

const BOTH_REQUIRED = 'Please fill in both subject and message'

/**
 * The broadcast form: subject and message are stored apart, so either may hold a colon. Given
 * the per-file limit (in the browser), an attachment over it is refused before it is sent.
 */
function announceSchema(maxUploadMb?: number) {
	return z
		.object({
			intent: z.literal('announce'),
			// Empty: every student; otherwise the one course whose students it is for.
			courseId: z.coerce.number('Choose who the announcement is for.').int().positive().optional(),
			// Control characters are refused (PostgreSQL text cannot hold NUL); the message keeps its line breaks and tabs.
			subject: z
				.string()
				.trim()
				.max(200, 'The subject is too long.')
				.refine((subject) => !hasControlCharacters(subject), 'The subject must not contain control characters.')
				.optional(),
			message: z
				.string()
				.trim()
				.max(MAX_MESSAGE_LENGTH, 'The message is too long.')
				.refine((message) => !hasControlCharacters(message, { lineBreaks: true }), 'The message must not contain control characters.')
				.optional(),
			attachment: fileField(maxUploadMb),
		})
		.superRefine((value, context) => {
			if (!value.subject || !value.message) context.addIssue({ code: 'custom', message: BOTH_REQUIRED, path: [] })
		})
}

const AnnounceSchema = announceSchema()

/**
 * An admin writes to every student or one course's and sees every announcement; an instructor
 * writes to the students of a course they teach and sees the announcements they sent (issue 42).
 */
export async function loader({ request }: Route.LoaderArgs) {
	const staff = await requireStaff(request)
	const params = new URL(request.url).searchParams
	const db = getDb()
	const before = beforeId(params)
	const page = partialPage('admin messages')
	const [announcements, courses] = await Promise.all([
		page.load(
			listAnnouncements(db, { userId: staff.id, isAdmin: staff.isAdmin }, { before, sentBy: staff.isAdmin ? undefined : staff.id }),
			{ messages: [], hasOlder: false },
			'Failed to load announcements: the server could not read them',
		),
		page.load(
			listCoursesOf(db, staff),
			[],
			staff.isAdmin ? 'Failed to load courses: announcements can go to all students only' : 'Failed to load your courses',
		),
	])
	const confirm = confirmedId(params)
	// Without JavaScript, Choose reloads the form for the audience picked, with what was typed (docs/decisions/047).
	const chosen = Number(params.get('courseId'))
	// An instructor has no "All students": their first course is the one picked until they choose.
	const fallback = staff.isAdmin ? '' : String(courses[0]?.id ?? '')
	return {
		userId: staff.id,
		isAdmin: staff.isAdmin,
		draft: {
			courseId: courses.some((course) => course.id === chosen) ? String(chosen) : fallback,
			subject: params.get('subject') ?? '',
			message: params.get('message') ?? '',
		},
		maxUploadMb: getEnv().MAX_UPLOAD_MB,
		courses,
		announcements: announcements.messages.map((message) => ({ ...message, ...announcementParts(message) })),
		olderBefore: announcements.hasOlder ? announcements.messages.at(-1)!.id : null,
		confirmDelete: announcements.messages.find((message) => message.id === confirm && message.senderId === staff.id)?.id ?? null,
		pageToast: page.pageToast(),
	}
}

/**
 * Posts an announcement to every student or to one course's (with one optional file), which
 * also e-mails it to them (messages.server.ts createMessage); deletes one (the confirmation dialog).
 * An instructor's audience must be a course they teach: anything else is refused and nothing is sent.
 */
export async function action(args: Route.ActionArgs) {
	const { request } = args
	const staff = await requireStaff(request)
	const db = getDb()
	const received = await receiveForm(request, staff, {
		mayUpload: async (fields) => fields.get('intent') === 'announce',
		uploadFailedTitle: (intent) => (intent === 'announce' ? 'Failed to attach file to announcement' : 'Failed to upload file'),
	})
	if (!received.ok) {
		if (received.intent !== 'announce') return failureResponse(args, received.intent, received, received.receiverId)
		// The subject and message arrived before the refused file: the form shows them again with the reason.
		const result = parseWithZod(received.fields, { schema: AnnounceSchema }).reply({ formErrors: [received.error] })
		return data({ intent: 'announce', result }, { status: received.status, headers: await actionToastHeaders(args, received.toast) })
	}
	if (received.fields.get('intent') !== 'announce') {
		return handleConversationIntent(args, received, staff, { threadUrl: directThreadUrl, successToasts: true })
	}
	const { upload } = received
	const submission = parseWithZod(received.fields, { schema: AnnounceSchema })
	if (submission.status !== 'success') {
		await discardUpload(upload)
		return data({ intent: 'announce', result: submission.reply() }, { status: 400 })
	}
	// Both are present: the schema refuses a submission without either.
	const { subject, message = '', courseId = null } = submission.value
	if (!staff.isAdmin && (courseId === null || !(await isCourseStaff(db, staff.id, courseId)))) {
		await discardUpload(upload)
		const result = submission.reply({ fieldErrors: { courseId: ['Choose one of the courses you teach.'] } })
		return data({ intent: 'announce', result }, { status: 400 })
	}
	if (courseId !== null && !(await getCourseOption(db, courseId))) {
		await discardUpload(upload)
		const result = submission.reply({ fieldErrors: { courseId: ['This course no longer exists. Choose another audience.'] } })
		return data({ intent: 'announce', result }, { status: 400 })
	}
	try {
		await db.transaction().execute(async (trx) => {
			const created = await createMessage(trx, {
				senderId: staff.id,
				receiverId: null,
				subject,
				courseId,
				content: message,
				attachment: upload,
			})
			await recordAudit(trx, {
				actorId: staff.id,
				action: 'announcement.create',
				entity: 'message',
				entityId: created.id,
				details: { subject, courseId, attachment: upload?.name ?? null },
			})
		})
	} catch (error) {
		console.error('[messages] announcement failed', error)
		await discardUpload(upload)
		return data(
			{ intent: 'announce', result: submission.reply() },
			{
				status: 503,
				headers: await actionToastHeaders(args, { type: 'error', title: "Failed to send announcement. Please ensure you're logged in." }),
			},
		)
	}
	// Who the e-mail copy reaches and who only sees it on the site (issue 39 point 5).
	const reach = await announcementReach(db, courseId)
	return redirectWithToast(BROADCAST_PATH, {
		type: 'success',
		title: upload ? 'Announcement with file sent successfully' : 'Announcement sent successfully!',
		description: reach.summary,
	})
}

export default function Broadcast({ loaderData, actionData }: Route.ComponentProps) {
	const location = useLocation()
	const link = (changes: Record<string, string | number | null>) => withSearch(BROADCAST_PATH, location.search, changes)
	const navigation = useNavigation()
	const sending = navigation.state === 'submitting' && navigation.formData?.get('intent') === 'announce'
	const lastResult = actionData && 'result' in actionData && actionData.intent === 'announce' ? actionData.result : undefined
	const [form, fields] = useForm({
		id: 'announce',
		lastResult,
		constraint: getZodConstraint(AnnounceSchema),
		onValidate: ({ formData }) => parseWithZod(formData, { schema: announceSchema(loaderData.maxUploadMb) }),
		shouldValidate: 'onSubmit',
		defaultValue: loaderData.draft,
	})
	const hydrated = useHydrated()
	const audience = loaderData.courses.find((course) => String(course.id) === fields.courseId.value)
	const formRef = useRef<HTMLFormElement>(null)
	const wasSending = useRef(false)
	useEffect(() => {
		if (sending) wasSending.current = true
		else if (navigation.state === 'idle' && wasSending.current) {
			wasSending.current = false
			if (!lastResult) formRef.current?.reset()
		}
	}, [sending, navigation.state, lastResult])
	const count = loaderData.announcements.length

	return (
		<>
			{loaderData.confirmDelete ? (
				<DeleteMessageDialog messageId={loaderData.confirmDelete} closeTo={link({ confirm: null })} announcement />
			) : null}
			<Card>
				<CardHeader>
					<CardTitle>Broadcast Announcement</CardTitle>
					<CardDescription>
						The students it is for see it under Messages, Announcements, and get it by email unless they turned announcement emails off.
					</CardDescription>
				</CardHeader>
				<CardContent>
					{!loaderData.isAdmin && loaderData.courses.length === 0 ? (
						<Alert tone="info" className="mb-4">
							You teach no course yet: announcements go to the students of a course you teach.
						</Alert>
					) : null}
					<Form
						ref={formRef}
						method="post"
						action={BROADCAST_PATH}
						encType="multipart/form-data"
						{...getFormProps(form)}
						className="max-w-2xl space-y-4"
						preventScrollReset
					>
						<input type="hidden" name="intent" value="announce" />
						<FormErrors id={form.errorId} errors={form.errors} />
						<SelectField label="Send to" errors={fields.courseId.errors} selectProps={getSelectProps(fields.courseId)}>
							{loaderData.isAdmin ? <option value="">All students</option> : null}
							{loaderData.courses.map((course) => (
								<option key={course.id} value={course.id}>
									{`Students of ${course.title}`}
								</option>
							))}
						</SelectField>
						{hydrated ? null : (
							<Button type="submit" formMethod="get" formAction={BROADCAST_PATH} variant="outline" size="sm">
								Choose Audience
							</Button>
						)}
						<Field
							label="Subject"
							inputProps={{ ...getInputProps(fields.subject, { type: 'text' }), maxLength: 200 }}
							errors={fields.subject.errors}
						/>
						<TextareaField
							label="Message"
							textareaProps={{ ...getTextareaProps(fields.message), rows: 5 }}
							errors={fields.message.errors}
						/>
						<Field
							label="Attachment (optional)"
							help={`One file, up to ${loaderData.maxUploadMb} MB.`}
							errors={fields.attachment.errors}
							inputProps={{ ...getInputProps(fields.attachment, { type: 'file' }), className: 'py-1.5' }}
						/>
						<Button type="submit" disabled={sending}>
							{sending ? 'Sending...' : audience ? `Send to Students of ${audience.title}` : 'Send to All Students'}
						</Button>
					</Form>
				</CardContent>
			</Card>
			<Card>
				<CardHeader className="flex flex-row flex-wrap items-center justify-between gap-2">
					<div>
						<CardTitle>Sent Announcements</CardTitle>
						<p className="text-sm text-slate-600" role="status">
							{count} announcement(s) loaded
						</p>
					</div>
					<ButtonLink to={link({ confirm: null })} variant="outline" size="sm" preventScrollReset>
						Refresh
					</ButtonLink>
				</CardHeader>
				<CardContent>
					{count === 0 ? (
						<EmptyState title="No announcements sent yet" />
					) : (
						<section aria-label="Sent announcements" tabIndex={0} className="max-h-[400px] overflow-y-auto pr-1">
							<AnnouncementList
								announcements={loaderData.announcements}
								olderUrl={loaderData.olderBefore ? link({ before: loaderData.olderBefore, confirm: null }) : null}
								currentUserId={loaderData.userId}
								deleteUrl={(id) => link({ confirm: `delete-${id}` })}
							/>
						</section>
					)}
				</CardContent>
			</Card>
		</>
	)
}

export const meta: Route.MetaFunction = () => pageTitle('Broadcast Announcements')

export { GeneralErrorBoundary as ErrorBoundary } from '#app/components/error-boundary.tsx'
