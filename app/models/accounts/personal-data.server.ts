import { type PassThrough, Readable } from 'node:stream'
import type { Kysely } from 'kysely'
import { ZipFile } from 'yazl'
import type { FileStorage } from '#app/services/storage/index.server.ts'
import type { Database } from '#db/types.ts'

/*
 * "Download my data" (docs/decisions/067): one ZIP of what the school holds about a person, JSON
 * documents plus the original files of their hand-ins and messages, written as it is sent: the
 * documents are small, and each file is read from storage only when its turn in the archive comes.
 */

const README = `Your data from {school}, as of {date}

Each .json file is one part of what the school keeps about you:

  profile.json       your account: name, e-mail, role, settings
  enrolments.json    the courses you enrolled in and their status
  payments.json      your payments with their refunds, and instalment plans with each instalment
  messages.json      the direct messages you sent and received, and announcements you sent
  submissions.json   the work you handed in, with grades and feedback
  attendance.json    your attendance at live sessions
  certificates.json  the certificates issued to you
  community.json     the discussions you started and the posts you wrote

The files/ folder holds the original files: files/submissions/ what you handed in,
files/messages/ the attachments of your messages. A JSON entry names its file by this path.
Times are in UTC (ISO 8601); amounts are in cents.

To delete your account, use "Delete my account" under Settings.
`

/** A name safe as one path segment of the archive. */
function safeName(name: string) {
	return (name.split(/[\\/]/).pop() ?? '').replace(/[\p{Cc}:*?"<>|]/gu, '_').trim() || 'file'
}

type ArchivedFile = { path: string; key: string }

/** The rows that belong to these parents, by their ids; none asked for when there are no parents (`in ()` is no SQL). */
async function ofParents<Row>(parents: { id: number }[], rows: (parentIds: number[]) => Promise<Row[]>): Promise<Row[]> {
	return parents.length ? rows(parents.map((parent) => parent.id)) : []
}

/** Everything the archive says, read before the first byte is written. */
async function collectPersonalData(db: Kysely<Database>, userId: string) {
	const profile = await db
		.selectFrom('users')
		.innerJoin('profiles', 'profiles.id', 'users.id')
		.select([
			'users.id',
			'users.email',
			'users.email_confirmed_at as emailConfirmedAt',
			'users.created_at as createdAt',
			'profiles.name',
			'profiles.role',
			'profiles.time_zone as timeZone',
			'profiles.email_announcements as emailAnnouncements',
			'profiles.email_reminders as emailReminders',
		])
		.where('users.id', '=', userId)
		.executeTakeFirst()
	if (!profile) return null

	const enrolments = await db
		.selectFrom('enrollments')
		.innerJoin('courses', 'courses.id', 'enrollments.course_id')
		.select([
			'enrollments.id',
			'courses.title as course',
			'courses.start_date as courseStart',
			'courses.end_date as courseEnd',
			'enrollments.status',
			'enrollments.enrollment_date as enrolledAt',
			'enrollments.agreement_version_id as agreementVersion',
		])
		.where('enrollments.user_id', '=', userId)
		.orderBy('enrollments.id')
		.execute()

	const payments = await db
		.selectFrom('registration_payments')
		.select([
			'id',
			'course_title as course',
			'provider',
			'checkout_session_id as checkoutSession',
			'amount_cents as amountCents',
			'discount_cents as discountCents',
			'promotion_code as promotionCode',
			'refunded_cents as refundedCents',
			'currency',
			'status',
			'created_at as createdAt',
			'fulfilled_at as paidAt',
		])
		.where('user_id', '=', userId)
		.orderBy('id')
		.execute()
	const refunds = await ofParents(payments, (paymentIds) =>
		db
			.selectFrom('payment_refunds')
			.select(['id', 'payment_id as paymentId', 'amount_cents as amountCents', 'reason', 'note', 'status', 'created_at as createdAt'])
			.where('payment_id', 'in', paymentIds)
			.orderBy('id')
			.execute(),
	)
	const plans = await db
		.selectFrom('plan_purchases')
		.innerJoin('courses', 'courses.id', 'plan_purchases.course_id')
		.select([
			'plan_purchases.id',
			'courses.title as course',
			'plan_purchases.kind',
			'plan_purchases.total_cents as totalCents',
			'plan_purchases.status',
			'plan_purchases.created_at as createdAt',
		])
		.where('plan_purchases.user_id', '=', userId)
		.orderBy('plan_purchases.id')
		.execute()
	const instalments = await ofParents(plans, (planIds) =>
		db
			.selectFrom('plan_instalments')
			.select([
				'plan_purchase_id as planId',
				'sequence',
				'label',
				'due_on as dueOn',
				'amount_cents as amountCents',
				'status',
				'paid_at as paidAt',
				'failed_at as failedAt',
			])
			.where('plan_purchase_id', 'in', planIds)
			.orderBy('plan_purchase_id')
			.orderBy('sequence')
			.execute(),
	)

	const messages = await db
		.selectFrom('messages')
		.leftJoin('profiles as sender', 'sender.id', 'messages.sender_id')
		.leftJoin('profiles as receiver', 'receiver.id', 'messages.receiver_id')
		.leftJoin('courses', 'courses.id', 'messages.course_id')
		.select([
			'messages.id',
			'messages.sender_id as senderId',
			'sender.name as senderName',
			'receiver.name as receiverName',
			'messages.is_announcement as isAnnouncement',
			'courses.title as course',
			'messages.subject',
			'messages.content',
			'messages.read',
			'messages.created_at as sentAt',
		])
		.where((eb) => eb.or([eb('messages.sender_id', '=', userId), eb('messages.receiver_id', '=', userId)]))
		.orderBy('messages.id')
		.execute()
	const attachments = await ofParents(messages, (messageIds) =>
		db
			.selectFrom('message_attachments')
			.select(['id', 'message_id as messageId', 'name', 'type', 'size_bytes as sizeBytes', 'storage_key as key'])
			.where('message_id', 'in', messageIds)
			.orderBy('id')
			.execute(),
	)

	const submissions = await db
		.selectFrom('assignment_submissions')
		.innerJoin('assignments', 'assignments.id', 'assignment_submissions.assignment_id')
		.innerJoin('courses', 'courses.id', 'assignments.course_id')
		.select([
			'assignment_submissions.id',
			'courses.title as course',
			'assignments.title as assignment',
			'assignment_submissions.body',
			'assignment_submissions.file_name as fileName',
			'assignment_submissions.file_type as fileType',
			'assignment_submissions.file_size as fileSize',
			'assignment_submissions.storage_key as key',
			'assignment_submissions.status',
			'assignment_submissions.grade',
			'assignment_submissions.feedback',
			'assignment_submissions.submitted_at as submittedAt',
			'assignment_submissions.graded_at as gradedAt',
		])
		.where('assignment_submissions.student_id', '=', userId)
		.orderBy('assignment_submissions.id')
		.execute()

	const attendance = await db
		.selectFrom('attendance')
		.innerJoin('live_sessions', 'live_sessions.id', 'attendance.live_session_id')
		.innerJoin('courses', 'courses.id', 'live_sessions.course_id')
		.select([
			'courses.title as course',
			'live_sessions.week_number as week',
			'live_sessions.starts_at as startsAt',
			'attendance.status',
			'attendance.minutes',
			'attendance.source',
		])
		.where('attendance.user_id', '=', userId)
		.orderBy('live_sessions.starts_at')
		.execute()
	const joins = await db
		.selectFrom('session_joins')
		.innerJoin('live_sessions', 'live_sessions.id', 'session_joins.live_session_id')
		.innerJoin('courses', 'courses.id', 'live_sessions.course_id')
		.select(['courses.title as course', 'live_sessions.week_number as week', 'session_joins.joined_at as joinedAt'])
		.where('session_joins.user_id', '=', userId)
		.orderBy('session_joins.joined_at')
		.execute()

	const certificates = await db
		.selectFrom('certificates')
		.select([
			'id',
			'recipient_name as recipientName',
			'course_title as course',
			'course_start_date as courseStart',
			'course_end_date as courseEnd',
			'live_minutes as liveMinutes',
			'issued_at as issuedAt',
			'revoked_at as revokedAt',
			'revoked_reason as revokedReason',
			'is_public as isPublic',
			'credential',
		])
		.where('user_id', '=', userId)
		.orderBy('issued_at')
		.execute()

	const posts = await db
		.selectFrom('community_posts')
		.innerJoin('community_threads', 'community_threads.id', 'community_posts.thread_id')
		.innerJoin('courses', 'courses.id', 'community_threads.course_id')
		.select([
			'community_posts.id',
			'courses.title as course',
			'community_threads.title as discussion',
			'community_posts.opening',
			'community_posts.body',
			'community_posts.created_at as createdAt',
			'community_posts.edited_at as editedAt',
			'community_posts.deleted_at as deletedAt',
		])
		.where('community_posts.author_id', '=', userId)
		.orderBy('community_posts.id')
		.execute()

	const files: ArchivedFile[] = []
	const archive = (folder: string, id: number, name: string, key: string) => {
		const path = `files/${folder}/${id}-${safeName(name)}`
		files.push({ path, key })
		return path
	}

	const documents = {
		'profile.json': profile,
		'enrolments.json': enrolments,
		'payments.json': {
			payments: payments.map((payment) => ({ ...payment, refunds: refunds.filter((refund) => refund.paymentId === payment.id) })),
			instalmentPlans: plans.map((plan) => ({ ...plan, instalments: instalments.filter((instalment) => instalment.planId === plan.id) })),
		},
		'messages.json': messages.map(({ senderId, senderName, receiverName, ...message }) => ({
			...message,
			direction: senderId === userId ? 'sent' : 'received',
			from: senderId === userId ? profile.name : (senderName ?? 'Deleted user'),
			to: message.isAnnouncement ? (message.course ?? 'every student') : senderId === userId ? receiverName : profile.name,
			attachments: attachments
				.filter((attachment) => attachment.messageId === message.id)
				.map(({ key, messageId: _messageId, ...attachment }) => ({
					...attachment,
					file: archive('messages', attachment.id, attachment.name, key),
				})),
		})),
		'submissions.json': submissions.map(({ key, ...submission }) => ({
			...submission,
			file: key ? archive('submissions', submission.id, submission.fileName ?? 'file', key) : null,
		})),
		'attendance.json': { sessions: attendance, joinLinkUsed: joins },
		'certificates.json': certificates.map((certificate) => ({ ...certificate, verifyPath: `/certificates/${certificate.id}` })),
		'community.json': posts,
	}
	return { documents, files }
}

/**
 * The archive of one person's data as a stream, or null when there is no such person. `school`
 * names the school in the README.
 */
export async function personalDataArchive(
	db: Kysely<Database>,
	storage: FileStorage,
	{ userId, school, now = new Date() }: { userId: string; school: string; now?: Date },
): Promise<Readable | null> {
	const collected = await collectPersonalData(db, userId)
	if (!collected) return null
	const zip = new ZipFile()
	const output = zip.outputStream as PassThrough
	// A file that cannot be read ends the download with an error (the browser reports it failed)
	// rather than leaving it waiting: a piped stream's errors do not reach the archive by themselves.
	const fail = (error: unknown) => {
		console.error('[personal data] the archive could not be written:', error instanceof Error ? error.message : error)
		output.destroy(error instanceof Error ? error : new Error(String(error)))
	}
	zip.on('error', fail)
	// A download given up (the browser went away) stops reading the file in progress too.
	let reading: Readable | undefined
	output.once('close', () => reading?.destroy())
	const mtime = now
	zip.addBuffer(Buffer.from(README.replace('{school}', school).replace('{date}', now.toISOString())), 'README.txt', { mtime })
	for (const [name, content] of Object.entries(collected.documents)) {
		zip.addBuffer(Buffer.from(`${JSON.stringify(content, null, 2)}\n`), name, { mtime })
	}
	for (const file of collected.files) {
		// Originals are mostly compressed formats already (PDF, images, video): stored as they are.
		zip.addReadStreamLazy(file.path, { mtime, compress: false }, (done) => {
			storage.get(file.key).then(
				(object) => {
					reading = object?.body
					object?.body.once('error', fail)
					done(null, object ? object.body : Readable.from([]))
				},
				(error: unknown) => done(error, Readable.from([])),
			)
		})
	}
	zip.end()
	return output
}

/** The archive's file name: the school's data of this person on this day. */
export function personalDataFileName(now: Date) {
	return `my-data-${now.toISOString().slice(0, 10)}.zip`
}
