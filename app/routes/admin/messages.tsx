import { getFormProps, getInputProps, getTextareaProps, useForm } from '@conform-to/react'
import { getZodConstraint, parseWithZod } from '@conform-to/zod/v4'
import { useEffect, useRef } from 'react'
import { data, Form, redirect, useLocation, useNavigation } from 'react-router'
import { z } from 'zod'
import { GeneralErrorBoundary } from '#app/components/error-boundary.tsx'
import { useLiveRevalidation } from '#app/components/live-revalidation.tsx'
import { LocalDate } from '#app/components/local-date.tsx'
import { AnnouncementList } from '#app/components/messages/announcement-list.tsx'
import { ContactList } from '#app/components/messages/contact-list.tsx'
import { ConversationPanel } from '#app/components/messages/conversation-panel.tsx'
import { DeleteMessageDialog } from '#app/components/messages/delete-dialog.tsx'
import { type LinkBuilder, withSearch } from '#app/components/messages/urls.ts'
import { Alert } from '#app/components/ui/alert.tsx'
import { Badge } from '#app/components/ui/badge.tsx'
import { Button, ButtonLink } from '#app/components/ui/button.tsx'
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '#app/components/ui/card.tsx'
import { EmptyState } from '#app/components/ui/empty-state.tsx'
import { Field, TextareaField } from '#app/components/ui/field.tsx'
import { TabLinks } from '#app/components/ui/tabs.tsx'
import { recordAudit } from '#app/models/audit-log.server.ts'
import { listContactSubmissions, markContactSubmissionRead } from '#app/models/contact-submissions.server.ts'
import { canMessage, getContact, listContacts } from '#app/models/contacts.server.ts'
import { createMessage, listAnnouncements, listConversation, splitAnnouncement } from '#app/models/messages.server.ts'
import { MAX_MESSAGE_LENGTH } from '#app/models/messages.ts'
import { requireAdmin } from '#app/utils/auth.server.ts'
import { getDb } from '#app/utils/db.server.ts'
import { getEnv } from '#app/utils/env.server.ts'
import { cn, searchText } from '#app/utils/misc.ts'
import { partialPage } from '#app/utils/page-toast.server.ts'
import { actionToastHeaders, redirectWithToast } from '#app/utils/toast.server.ts'
import { discardUpload, failureResponse, handleConversationIntent, receiveForm, refreshContacts } from '../dashboard/messages.server.ts'
import type { Route } from './+types/messages'

const PATH = '/dashboard/admin/messages'
/** Where announcements are posted: the tab tells a post that finds no session what it was (see requireUser). */
const ANNOUNCE_URL = `${PATH}?tab=broadcast`
const threadUrl = (partnerId: string) => `${PATH}?tab=direct&with=${partnerId}`
const BOTH_REQUIRED = 'Please fill in both subject and message'
const LIVE_EVENTS = ['message.created', 'message.deleted', 'message.read', 'announcement.created', 'announcement.deleted'] as const

/** The broadcast form. Stored as 'subject: message', so the subject cannot hold a colon of its own. */
const AnnounceSchema = z
	.object({
		intent: z.literal('announce'),
		subject: z.string().trim().max(200, 'The subject is too long.').optional(),
		message: z
			.string()
			.trim()
			.max(MAX_MESSAGE_LENGTH - 202, 'The message is too long.')
			.optional(),
	})
	.superRefine((value, context) => {
		if (!value.subject || !value.message) context.addIssue({ code: 'custom', message: BOTH_REQUIRED, path: [] })
		else if (value.subject.includes(':')) {
			context.addIssue({ code: 'custom', message: 'The subject cannot contain a colon (:).', path: ['subject'] })
		}
	})

const ContactReadSchema = z.object({ intent: z.literal('contact-read'), submissionId: z.coerce.number().int().positive() })

type Tab = 'broadcast' | 'direct' | 'contact'

function positiveInt(value: string | null) {
	const number = Number(value)
	return Number.isSafeInteger(number) && number > 0 ? number : undefined
}

function confirmedId(params: URLSearchParams) {
	return positiveInt(params.get('confirm')?.replace(/^delete-/, '') ?? null)
}

export async function loader({ request }: Route.LoaderArgs) {
	const admin = await requireAdmin(request)
	const params = new URL(request.url).searchParams
	if (params.has('refresh')) throw await refreshContacts(PATH, params, admin)
	const db = getDb()
	const requested = params.get('tab')
	const tab: Tab = requested === 'direct' || requested === 'contact' ? requested : 'broadcast'
	const before = positiveInt(params.get('before'))
	const base = { userId: admin.id, maxUploadMb: getEnv().MAX_UPLOAD_MB }

	const page = partialPage('admin messages')

	if (tab === 'contact') {
		const submissions = await page.load(listContactSubmissions(db), [], 'Failed to load contact submissions')
		return { ...base, tab: 'contact' as const, submissions, pageToast: page.pageToast() }
	}
	if (tab === 'broadcast') {
		const announcements = await page.load(
			listAnnouncements(db, { before }),
			{ messages: [], hasOlder: false },
			'Failed to load announcements: the server could not read them',
		)
		const confirm = confirmedId(params)
		return {
			...base,
			tab: 'broadcast' as const,
			announcements: announcements.messages.map((message) => ({ ...message, ...splitAnnouncement(message.content) })),
			olderBefore: announcements.hasOlder ? announcements.messages.at(-1)!.id : null,
			confirmDelete: announcements.messages.find((message) => message.id === confirm && message.senderId === admin.id)?.id ?? null,
			pageToast: page.pageToast(),
		}
	}
	const search = searchText(params)
	const { contacts, hasMore } = await page.load(
		listContacts(db, admin, { search }),
		{ contacts: [], hasMore: false },
		'Failed to load contacts',
	)
	const withId = params.get('with')
	const selected = withId
		? (contacts.find((contact) => contact.id === withId) ??
			(await page.load(getContact(db, admin, withId), null, 'Failed to load contacts')))
		: null
	const thread = selected
		? await page.load(listConversation(db, { userId: admin.id, partnerId: selected.id, before }), null, 'Failed to load messages')
		: null
	const confirm = confirmedId(params)
	return {
		...base,
		pageToast: page.pageToast(),
		tab: 'direct' as const,
		search,
		contacts,
		hasMoreContacts: hasMore,
		selected,
		thread: thread ? { messages: thread.messages, olderBefore: thread.hasOlder ? thread.messages[0]!.id : null } : null,
		confirmDelete: thread?.messages.find((message) => message.id === confirm && message.senderId === admin.id)?.id ?? null,
	}
}

export async function action(args: Route.ActionArgs) {
	const { request } = args
	const admin = await requireAdmin(request)
	const db = getDb()
	const received = await receiveForm(request, admin, {
		mayUpload: async (fields) => {
			const intent = fields.get('intent')
			if (intent === 'announce') return true
			return intent === 'send' && canMessage(db, admin, String(fields.get('receiverId') ?? ''))
		},
		uploadFailedTitle: (intent) => (intent === 'announce' ? 'Failed to attach file to announcement' : 'Failed to upload file'),
	})
	if (!received.ok) return failureResponse(args, received.intent, received, received.receiverId)
	const intent = received.fields.get('intent')

	if (intent === 'announce') {
		const { upload } = received
		const submission = parseWithZod(received.fields, { schema: AnnounceSchema })
		if (submission.status !== 'success') {
			await discardUpload(upload)
			return data({ intent: 'announce', result: submission.reply() }, { status: 400 })
		}
		const { subject, message } = submission.value
		try {
			await db.transaction().execute(async (trx) => {
				const created = await createMessage(trx, {
					senderId: admin.id,
					receiverId: null,
					content: `${subject}: ${message}`,
					attachment: upload,
				})
				await recordAudit(trx, {
					actorId: admin.id,
					action: 'announcement.create',
					entity: 'message',
					entityId: created.id,
					details: { subject, attachment: upload?.name ?? null },
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
		return redirectWithToast(`${PATH}?tab=broadcast`, {
			type: 'success',
			title: upload ? 'Announcement with file sent successfully' : 'Announcement sent successfully!',
		})
	}

	if (intent === 'contact-read') {
		const submission = parseWithZod(received.fields, { schema: ContactReadSchema })
		const marked =
			submission.status === 'success' &&
			(await db.transaction().execute(async (trx) => {
				const found = await markContactSubmissionRead(trx, submission.value.submissionId)
				if (found) {
					await recordAudit(trx, {
						actorId: admin.id,
						action: 'contact_submission.read',
						entity: 'contact_submission',
						entityId: submission.value.submissionId,
					})
				}
				return found
			}))
		if (!marked) return redirectWithToast(`${PATH}?tab=contact`, { type: 'error', title: 'Failed to mark message as read' })
		return redirect(`${PATH}?tab=contact`)
	}

	return handleConversationIntent(args, received, admin, {
		threadUrl,
		successToasts: true,
	})
}

export default function AdminMessagesPage({ loaderData, actionData }: Route.ComponentProps) {
	useLiveRevalidation([...LIVE_EVENTS])
	const location = useLocation()
	const link = (changes: Record<string, string | number | null>) => withSearch(PATH, location.search, changes)
	const tabs = [
		{ id: 'broadcast', label: 'Broadcast Announcements', to: `${PATH}?tab=broadcast` },
		{ id: 'direct', label: 'Direct Messages', to: `${PATH}?tab=direct` },
		{ id: 'contact', label: 'Contact Form', to: `${PATH}?tab=contact` },
	]
	return (
		<>
			<h1 className="text-2xl font-bold text-ink">Student Communications</h1>
			<TabLinks tabs={tabs} current={loaderData.tab} label="Communication channels" />
			{loaderData.tab === 'broadcast' ? <Broadcast loaderData={loaderData} actionData={actionData} link={link} /> : null}
			{loaderData.tab === 'direct' ? <DirectMessages loaderData={loaderData} actionData={actionData} link={link} /> : null}
			{loaderData.tab === 'contact' ? <ContactSubmissions submissions={loaderData.submissions} /> : null}
		</>
	)
}

type LoaderData = Route.ComponentProps['loaderData']
type ActionData = Route.ComponentProps['actionData']

function Broadcast({
	loaderData,
	actionData,
	link,
}: {
	loaderData: Extract<LoaderData, { tab: 'broadcast' }>
	actionData: ActionData
	link: LinkBuilder
}) {
	const navigation = useNavigation()
	const sending = navigation.state === 'submitting' && navigation.formData?.get('intent') === 'announce'
	const lastResult = actionData && 'result' in actionData && actionData.intent === 'announce' ? actionData.result : undefined
	const [form, fields] = useForm({
		id: 'announce',
		lastResult,
		constraint: getZodConstraint(AnnounceSchema),
		onValidate: ({ formData }) => parseWithZod(formData, { schema: AnnounceSchema }),
		shouldValidate: 'onSubmit',
	})
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
			<Card>
				<CardHeader>
					<CardTitle>Broadcast Announcement</CardTitle>
					<CardDescription>Every student sees it under Messages, Announcements.</CardDescription>
				</CardHeader>
				<CardContent>
					<Form
						ref={formRef}
						method="post"
						action={ANNOUNCE_URL}
						encType="multipart/form-data"
						{...getFormProps(form)}
						className="max-w-2xl space-y-4"
						preventScrollReset
					>
						<input type="hidden" name="intent" value="announce" />
						{form.errors?.length ? (
							<Alert tone="error" id={form.errorId}>
								{form.errors[0]}
							</Alert>
						) : null}
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
							inputProps={{ type: 'file', name: 'attachment', className: 'py-1.5' }}
						/>
						<Button type="submit" disabled={sending}>
							{sending ? 'Sending...' : 'Send to All Students'}
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
			{loaderData.confirmDelete ? (
				<DeleteMessageDialog messageId={loaderData.confirmDelete} closeTo={link({ confirm: null })} announcement />
			) : null}
		</>
	)
}

function DirectMessages({
	loaderData,
	actionData,
	link,
}: {
	loaderData: Extract<LoaderData, { tab: 'direct' }>
	actionData: ActionData
	link: LinkBuilder
}) {
	const { selected } = loaderData
	const hidden: Record<string, string> = { tab: 'direct' }
	if (selected) hidden.with = selected.id

	return (
		<div className="grid grid-cols-1 gap-4 lg:grid-cols-[20rem_minmax(0,1fr)]">
			<ContactList
				title="Students"
				contacts={loaderData.contacts}
				selectedId={selected?.id ?? null}
				search={loaderData.search}
				hidden={hidden}
				contactUrl={(id) => link({ with: id, before: null, confirm: null })}
				refreshUrl={link({ refresh: '1' })}
				hasMore={loaderData.hasMoreContacts}
				emptyText={loaderData.search ? 'No students match your search.' : 'No students yet.'}
			/>
			<ConversationPanel
				conversation={loaderData}
				actionData={actionData}
				threadUrl={threadUrl}
				link={link}
				empty={<EmptyState title="Select a student" description="Choose a student to start a conversation" />}
			/>
			{loaderData.confirmDelete ? <DeleteMessageDialog messageId={loaderData.confirmDelete} closeTo={link({ confirm: null })} /> : null}
		</div>
	)
}

function ContactSubmissions({ submissions }: { submissions: Extract<LoaderData, { tab: 'contact' }>['submissions'] }) {
	return (
		<Card>
			<CardHeader>
				<CardTitle>Contact Form Submissions</CardTitle>
			</CardHeader>
			<CardContent>
				{submissions.length === 0 ? (
					<EmptyState title="No contact submissions yet" />
				) : (
					<ul className="space-y-3">
						{submissions.map((submission) => (
							<li
								key={submission.id}
								className={cn('rounded-lg border p-4', submission.read ? 'border-slate-200 bg-white' : 'border-amber-300 bg-amber-50')}
							>
								<article aria-label={`Message from ${submission.name}`}>
									<div className="flex flex-wrap items-start justify-between gap-2">
										<div>
											<h3 className="flex flex-wrap items-center gap-2 font-semibold text-ink">
												{submission.name}
												{submission.read ? null : <Badge tone="orange">Unread</Badge>}
												{submission.kind === 'waitlist' ? <Badge tone="blue">Waitlist: {submission.program}</Badge> : null}
											</h3>
											<p className="text-sm text-slate-700">
												<a href={`mailto:${submission.email}`} className="text-brand-800 underline underline-offset-2">
													{submission.email}
												</a>
												{submission.phone ? <span> · {submission.phone}</span> : null}
											</p>
											<p className="text-xs text-slate-600">
												<LocalDate value={submission.created_at} time />
											</p>
										</div>
										{submission.read ? null : (
											<Form method="post" preventScrollReset>
												<input type="hidden" name="intent" value="contact-read" />
												<input type="hidden" name="submissionId" value={submission.id} />
												<Button type="submit" size="sm" variant="outline">
													Mark as read
												</Button>
											</Form>
										)}
									</div>
									<p className="mt-2 whitespace-pre-wrap text-slate-800">{submission.message}</p>
								</article>
							</li>
						))}
					</ul>
				)}
			</CardContent>
		</Card>
	)
}

export const meta: Route.MetaFunction = () => [{ title: 'Student Communications | Real Estate Mentorship' }]

export function ErrorBoundary() {
	return <GeneralErrorBoundary />
}
