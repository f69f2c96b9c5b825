import { type Expression, expressionBuilder, type Kysely, type SqlBool, sql } from 'kysely'
import { publishEvent } from '#app/services/events/publish.server.ts'
import { addJob } from '#app/services/jobs/queue.server.ts'
import type { FileStorage } from '#app/services/storage/index.server.ts'
import type { Database } from '#db/types.ts'
import { deleteStoredFiles, type StoredUpload } from './attachments.server.ts'
import { DELETED_USER, UNKNOWN_USER } from './message-contacts.server.ts'

const MESSAGES_PAGE_SIZE = 20

/** The job that e-mails an announcement to its readers (announcement-emails.server.ts emailAnnouncement). */
export const EMAIL_ANNOUNCEMENT_TASK = 'email-announcement'

export type AttachmentView = { id: number; name: string; type: string; size: number; url: string }

export type MessageView = {
	id: number
	sender: string
	/** Null when the sender deleted their account (docs/decisions/067). */
	senderId: string | null
	receiverId: string | null
	content: string
	/** Announcements only; null on those stored as 'subject: message' (see announcementParts). */
	subject: string | null
	/** The course an announcement is addressed to; null when it is for every student. */
	course: { id: number; title: string } | null
	timestamp: Date
	read: boolean
	isAnnouncement: boolean
	attachments: AttachmentView[]
}

export type MessagePage = { messages: MessageView[]; hasOlder: boolean }

function attachmentUrl(id: number) {
	return `/files/attachments/${id}`
}

function messagesWithSender(db: Kysely<Database>) {
	return db
		.selectFrom('messages')
		.leftJoin('profiles', 'profiles.id', 'messages.sender_id')
		.leftJoin('courses', 'courses.id', 'messages.course_id')
		.select([
			'messages.id',
			'messages.sender_id',
			'messages.receiver_id',
			'messages.content',
			'messages.subject',
			'messages.created_at',
			'messages.read',
			'messages.is_announcement',
			'profiles.name as senderName',
			'messages.course_id',
			'courses.title as courseTitle',
		])
}

type MessageRow = Awaited<ReturnType<ReturnType<typeof messagesWithSender>['execute']>>[number]

/** One page of rows read newest first; attachments come in one more query. */
async function toPage(db: Kysely<Database>, rows: MessageRow[], order: 'oldest-first' | 'newest-first'): Promise<MessagePage> {
	const hasOlder = rows.length > MESSAGES_PAGE_SIZE
	const page = rows.slice(0, MESSAGES_PAGE_SIZE)
	if (order === 'oldest-first') page.reverse()
	const ids = page.map((row) => row.id)
	const attachments = ids.length
		? await db
				.selectFrom('message_attachments')
				.select(['id', 'message_id', 'name', 'type', 'size_bytes'])
				.where('message_id', 'in', ids)
				.orderBy('id')
				.execute()
		: []
	return {
		hasOlder,
		messages: page.map((row) => ({
			id: row.id,
			sender: row.sender_id === null ? DELETED_USER : row.senderName?.trim() || UNKNOWN_USER,
			senderId: row.sender_id,
			receiverId: row.receiver_id,
			content: row.content,
			subject: row.subject,
			course: row.course_id !== null && row.courseTitle !== null ? { id: row.course_id, title: row.courseTitle } : null,
			timestamp: row.created_at,
			read: row.read,
			isAnnouncement: row.is_announcement,
			attachments: attachments
				.filter((attachment) => attachment.message_id === row.id)
				.map((attachment) => ({
					id: attachment.id,
					name: attachment.name,
					type: attachment.type,
					size: attachment.size_bytes,
					url: attachmentUrl(attachment.id),
				})),
		})),
	}
}

/** The direct messages between two people, 20 at a time, oldest first for reading; `before` pages back by message id. */
export async function listConversation(
	db: Kysely<Database>,
	{ userId, partnerId, before }: { userId: string; partnerId: string; before?: number },
) {
	let query = messagesWithSender(db)
		.where('messages.is_announcement', '=', false)
		.where((eb) =>
			eb.or([
				eb.and([eb('messages.sender_id', '=', userId), eb('messages.receiver_id', '=', partnerId)]),
				eb.and([eb('messages.sender_id', '=', partnerId), eb('messages.receiver_id', '=', userId)]),
			]),
		)
		.orderBy('messages.id', 'desc')
		.limit(MESSAGES_PAGE_SIZE + 1)
	if (before) query = query.where('messages.id', '<', before)
	return toPage(db, await query.execute(), 'oldest-first')
}

/**
 * The direct messages `userId` received from people who have since deleted their accounts
 * (docs/decisions/067): no contact to open them under, so they are read on their own, the newest 20.
 */
export async function listFromDeletedAccounts(db: Kysely<Database>, userId: string) {
	const rows = await messagesWithSender(db)
		.where('messages.receiver_id', '=', userId)
		.where('messages.sender_id', 'is', null)
		.orderBy('messages.id', 'desc')
		.limit(MESSAGES_PAGE_SIZE + 1)
		.execute()
	return toPage(db, rows, 'oldest-first')
}

/**
 * Who reads announcements: admins see every one; anyone else those for everyone, for the courses
 * they are actively enrolled in and for the courses they teach (docs/decisions/058).
 */
export type AnnouncementReader = { userId: string; isAdmin: boolean }

/** The announcements `reader` may see, as a condition on `messages`. */
function readableBy(reader: AnnouncementReader): Expression<SqlBool> {
	const eb = expressionBuilder<Database, 'messages'>()
	if (reader.isAdmin) return sql<SqlBool>`true`
	return eb.or([
		eb('messages.course_id', 'is', null),
		eb.exists(
			eb
				.selectFrom('enrollments')
				.select('enrollments.id')
				.whereRef('enrollments.course_id', '=', 'messages.course_id')
				.where('enrollments.user_id', '=', reader.userId)
				.where('enrollments.status', '=', 'active'),
		),
		eb.exists(
			eb
				.selectFrom('course_staff')
				.select('course_staff.course_id')
				.whereRef('course_staff.course_id', '=', 'messages.course_id')
				.where('course_staff.user_id', '=', reader.userId),
		),
	])
}

/** The announcements `reader` may see (only those `sentBy` someone, when given), 20 at a time, newest first. */
export async function listAnnouncements(
	db: Kysely<Database>,
	reader: AnnouncementReader,
	{ before, sentBy }: { before?: number; sentBy?: string } = {},
) {
	let query = messagesWithSender(db)
		.where('messages.is_announcement', '=', true)
		.where(readableBy(reader))
		.orderBy('messages.id', 'desc')
		.limit(MESSAGES_PAGE_SIZE + 1)
	if (before) query = query.where('messages.id', '<', before)
	if (sentBy) query = query.where('messages.sender_id', '=', sentBy)
	return toPage(db, await query.execute(), 'newest-first')
}

/**
 * Stores a direct message (receiverId set) or an announcement (null, with its subject, for
 * every student or for one course's) with its attachment, and publishes the event at commit;
 * an announcement's e-mails are asked for in the same transaction. Call in a transaction.
 */
export async function createMessage(
	trx: Kysely<Database>,
	{
		senderId,
		receiverId,
		subject,
		courseId,
		content,
		attachment,
	}: {
		senderId: string
		receiverId: string | null
		subject?: string
		courseId?: number | null
		content: string
		attachment?: StoredUpload
	},
) {
	const message = await trx
		.insertInto('messages')
		.values({
			sender_id: senderId,
			receiver_id: receiverId,
			subject: receiverId === null ? (subject ?? null) : null,
			course_id: receiverId === null ? (courseId ?? null) : null,
			content,
			is_announcement: receiverId === null,
		})
		.returning('id')
		.executeTakeFirstOrThrow()
	if (attachment) {
		await trx
			.insertInto('message_attachments')
			.values({
				message_id: message.id,
				name: attachment.name,
				type: attachment.type,
				size_bytes: attachment.size,
				storage_key: attachment.key,
			})
			.execute()
	}
	// One job fans the e-mails out, so posting costs one insert whatever the audience.
	if (receiverId === null) {
		await addJob(trx, EMAIL_ANNOUNCEMENT_TASK, { messageId: message.id }, { jobKey: `${EMAIL_ANNOUNCEMENT_TASK}:${message.id}` })
	}
	await publishEvent(
		trx,
		receiverId === null
			? { type: 'announcement.created', messageId: message.id }
			: { type: 'message.created', messageId: message.id, senderId, receiverId },
	)
	return message
}

export type DeleteResult = 'deleted' | 'not-found' | 'forbidden'

/**
 * Deletes a message for good, but only for its sender: its attachment rows go
 * in the same transaction, their stored files once it has committed.
 */
export async function deleteMessage(
	db: Kysely<Database>,
	storage: FileStorage,
	{
		messageId,
		userId,
		beforeCommit,
	}: {
		messageId: number
		userId: string
		/** Runs in the deleting transaction (an audit entry). */
		beforeCommit?: (trx: Kysely<Database>, message: { isAnnouncement: boolean }) => Promise<void>
	},
): Promise<{ result: DeleteResult; receiverId?: string | null; isAnnouncement?: boolean }> {
	const outcome = await db.transaction().execute(async (trx) => {
		const message = await trx
			.selectFrom('messages')
			.select(['id', 'sender_id', 'receiver_id', 'is_announcement'])
			.where('id', '=', messageId)
			.forUpdate()
			.executeTakeFirst()
		if (!message) return { result: 'not-found' as const, keys: [] }
		if (message.sender_id !== userId) {
			// A third party's direct message is "not found": its existence is not theirs to learn.
			const visible = message.is_announcement || message.receiver_id === userId
			return { result: visible ? ('forbidden' as const) : ('not-found' as const), keys: [] }
		}
		const attachments = await trx.deleteFrom('message_attachments').where('message_id', '=', messageId).returning('storage_key').execute()
		await trx.deleteFrom('messages').where('id', '=', messageId).execute()
		await beforeCommit?.(trx, { isAnnouncement: message.is_announcement })
		await publishEvent(
			trx,
			message.receiver_id === null
				? { type: 'announcement.deleted', messageId }
				: { type: 'message.deleted', messageId, senderId: message.sender_id, receiverId: message.receiver_id },
		)
		return {
			result: 'deleted' as const,
			keys: attachments.map((row) => row.storage_key),
			receiverId: message.receiver_id,
			isAnnouncement: message.is_announcement,
		}
	})
	await deleteStoredFiles(storage, outcome.keys)
	return { result: outcome.result, receiverId: outcome.receiverId, isAnnouncement: outcome.isAnnouncement }
}

/** Marks what `partnerId` sent to `userId` as read; returns how many changed. Call in a transaction. */
export async function markConversationRead(trx: Kysely<Database>, { userId, partnerId }: { userId: string; partnerId: string }) {
	const updated = await trx
		.updateTable('messages')
		.set({ read: true })
		.where('receiver_id', '=', userId)
		.where('sender_id', '=', partnerId)
		.where('read', '=', false)
		.returning('id')
		.execute()
	const latest = updated.reduce((max, row) => Math.max(max, row.id), 0)
	if (latest) await publishEvent(trx, { type: 'message.read', messageId: latest, senderId: partnerId, receiverId: userId })
	return updated.length
}

/**
 * The attachment if `reader` may download it: a direct message's files belong to its two
 * parties, an announcement's to those who may read the announcement (listAnnouncements).
 */
export async function findAttachmentForUser(
	db: Kysely<Database>,
	{ attachmentId, reader }: { attachmentId: number; reader: AnnouncementReader },
) {
	const userId = reader.userId
	const row = await db
		.selectFrom('message_attachments')
		.innerJoin('messages', 'messages.id', 'message_attachments.message_id')
		.select([
			'message_attachments.id',
			'message_attachments.name',
			'message_attachments.type',
			'message_attachments.size_bytes',
			'message_attachments.storage_key',
			'messages.sender_id',
			'messages.receiver_id',
			'messages.is_announcement',
			sql<boolean>`${readableBy(reader)}`.as('readableAnnouncement'),
		])
		.where('message_attachments.id', '=', attachmentId)
		.executeTakeFirst()
	if (!row) return { status: 'not-found' as const }
	const allowed = (row.is_announcement && row.readableAnnouncement) || row.sender_id === userId || row.receiver_id === userId
	if (!allowed) return { status: 'forbidden' as const }
	return { status: 'ok' as const, attachment: row }
}
