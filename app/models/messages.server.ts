import type { Kysely } from 'kysely'
import { publishEvent } from '#app/services/events/publish.server.ts'
import type { FileStorage } from '#app/services/storage/index.server.ts'
import type { Database } from '#db/types.ts'
import { deleteStoredFiles, type StoredUpload } from './attachments.server.ts'
import { UNKNOWN_USER } from './message-contacts.server.ts'

export const MESSAGES_PAGE_SIZE = 20

export type AttachmentView = { id: number; name: string; type: string; size: number; url: string }

export type MessageView = {
	id: number
	sender: string
	senderId: string
	receiverId: string | null
	content: string
	/** Announcements only; null on those stored as 'subject: message' (see announcementParts). */
	subject: string | null
	timestamp: Date
	read: boolean
	isAnnouncement: boolean
	attachments: AttachmentView[]
}

export type MessagePage = { messages: MessageView[]; hasOlder: boolean }

function attachmentUrl(id: number) {
	return `/files/attachments/${id}`
}

/**
 * An announcement's subject and body: stored apart (decision 29), or, for one written before
 * that, read from its 'subject: message' content, split at the first colon.
 */
export function announcementParts(message: { subject: string | null; content: string }) {
	if (message.subject !== null) return { subject: message.subject, body: message.content }
	const colon = message.content.indexOf(':')
	if (colon === -1) return { subject: message.content.trim(), body: '' }
	return { subject: message.content.slice(0, colon).trim(), body: message.content.slice(colon + 1).trim() }
}

function messagesWithSender(db: Kysely<Database>) {
	return db
		.selectFrom('messages')
		.leftJoin('profiles', 'profiles.id', 'messages.sender_id')
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
			sender: row.senderName?.trim() || UNKNOWN_USER,
			senderId: row.sender_id,
			receiverId: row.receiver_id,
			content: row.content,
			subject: row.subject,
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

/** Announcements, 20 at a time, newest first. */
export async function listAnnouncements(db: Kysely<Database>, { before }: { before?: number } = {}) {
	let query = messagesWithSender(db)
		.where('messages.is_announcement', '=', true)
		.orderBy('messages.id', 'desc')
		.limit(MESSAGES_PAGE_SIZE + 1)
	if (before) query = query.where('messages.id', '<', before)
	return toPage(db, await query.execute(), 'newest-first')
}

/**
 * Stores a direct message (receiverId set) or an announcement (null, with its
 * subject) with its attachment, and publishes the event at commit. Call in a transaction.
 */
export async function createMessage(
	trx: Kysely<Database>,
	{
		senderId,
		receiverId,
		subject,
		content,
		attachment,
	}: { senderId: string; receiverId: string | null; subject?: string; content: string; attachment?: StoredUpload },
) {
	const message = await trx
		.insertInto('messages')
		.values({
			sender_id: senderId,
			receiver_id: receiverId,
			subject: receiverId === null ? (subject ?? null) : null,
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
 * The attachment if `userId` may download it: a direct message's files belong
 * to its two parties, an announcement's to everyone signed in.
 */
export async function findAttachmentForUser(db: Kysely<Database>, { attachmentId, userId }: { attachmentId: number; userId: string }) {
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
		])
		.where('message_attachments.id', '=', attachmentId)
		.executeTakeFirst()
	if (!row) return { status: 'not-found' as const }
	const allowed = row.is_announcement || row.sender_id === userId || row.receiver_id === userId
	if (!allowed) return { status: 'forbidden' as const }
	return { status: 'ok' as const, attachment: row }
}
