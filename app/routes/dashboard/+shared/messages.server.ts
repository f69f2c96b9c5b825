import { parseWithZod } from '@conform-to/zod/v4'
import type { Kysely } from 'kysely'
import { data, href, redirect } from 'react-router'
import { z } from 'zod'
import { deleteStoredFiles, RefusedFileTypeError, type StoredUpload, storeAttachment } from '#app/models/messaging/attachments.server.ts'
import { canMessage, listContacts } from '#app/models/messaging/message-contacts.server.ts'
import {
	createMessage,
	deleteMessage,
	listConversation,
	listFromDeletedAccounts,
	markConversationRead,
} from '#app/models/messaging/messages.server.ts'
import { EMPTY_MESSAGE, MAX_MESSAGE_LENGTH, MessageContentSchema } from '#app/models/messaging/messages.ts'
import { recordAudit } from '#app/models/site/audit-log.server.ts'
import { getStorage } from '#app/services/storage/index.server.ts'
import { getDb } from '#app/utils/db.server.ts'
import { getEnv } from '#app/utils/env.server.ts'
import { readFormData } from '#app/utils/form-data.server.ts'
import { searchText } from '#app/utils/misc.ts'
import { MultipartError, parseMultipartForm, UploadTooLargeError } from '#app/utils/multipart.server.ts'
import type { partialPage } from '#app/utils/page-toast.server.ts'
import { consumeRateLimit } from '#app/utils/rate-limit.server.ts'
import { safeRedirectPath } from '#app/utils/safe-redirect.ts'
import type { SessionUser } from '#app/utils/session.server.ts'
import { type ActionRequest, actionToastHeaders, redirectWithToast, type ToastInput } from '#app/utils/toast.server.ts'
import { FILE_TOO_LARGE_MESSAGE } from '#app/utils/upload-limit.ts'
import type { Database } from '#db/types.ts'

/**
 * What an action answers when it does not redirect; the composer shows `error` and, without
 * JavaScript (the page is drawn anew), gets back the text it sent as `content`.
 */
export type MessagesActionData = { intent: string; error: string; receiverId?: string; content?: string }

const SendSchema = z.object({
	intent: z.literal('send'),
	receiverId: z.uuid({ error: 'Cannot send message: missing user or contact information' }),
	content: MessageContentSchema,
})

const DeleteSchema = z.object({
	intent: z.literal('delete'),
	messageId: z.coerce.number().int().positive(),
	redirectTo: z.string().optional(),
})

const MarkReadSchema = z.object({
	intent: z.literal('mark-read'),
	partnerId: z.uuid(),
	/** Sent by the no-JavaScript button (post/redirect/get); a fetcher leaves it out and gets data. */
	redirectTo: z.string().optional(),
})

const ConversationIntentSchema = z.discriminatedUnion('intent', [SendSchema, DeleteSchema, MarkReadSchema])

type Failure = { status: number; error: string; toast: ToastInput; content?: string }

export type ReceivedForm =
	| { ok: true; fields: FormData; upload?: StoredUpload }
	/** `fields`: those that arrived before the failure (the text comes before the file), so nothing typed is lost. */
	| ({ ok: false; intent: string; receiverId?: string; fields: FormData } & Failure)

/**
 * Reads an action's form. A multipart form (the composer, the broadcast) may
 * carry one file: it is streamed to storage under the user's key, with the
 * size limit enforced while it streams, after `mayUpload` has approved the
 * fields sent before it. Sending is rate limited.
 */
export async function receiveForm(
	request: Request,
	user: SessionUser,
	{
		mayUpload,
		uploadFailedTitle = () => 'Failed to upload file',
	}: {
		mayUpload: (fields: FormData) => Promise<boolean>
		/** The failure toast's title, by the form's intent. */
		uploadFailedTitle?: (intent: string) => string
	},
): Promise<ReceivedForm> {
	const contentType = request.headers.get('Content-Type') ?? ''
	if (!contentType.toLowerCase().startsWith('multipart/form-data')) return { ok: true, fields: await readFormData(request) }

	// Only the composer and the broadcast send multipart forms: both create a message.
	const limit = await consumeRateLimit('messageSend', user.id)
	if (!limit.allowed) {
		const error = `Too many messages. Please wait ${limit.retryAfterSeconds} seconds before sending more.`
		return {
			ok: false,
			intent: 'send',
			fields: new FormData(),
			status: 429,
			error,
			toast: { type: 'error', title: 'Failed to send message', description: error },
		}
	}
	const { MAX_UPLOAD_MB } = getEnv()
	let seen = new FormData()
	try {
		const { fields, files } = await parseMultipartForm(request, {
			maxFileBytes: MAX_UPLOAD_MB * 1024 * 1024,
			maxFieldBytes: MAX_MESSAGE_LENGTH * 4,
			onFile: async (file, fieldsSoFar) => {
				seen = fieldsSoFar
				if (!(await mayUpload(fieldsSoFar))) throw new UploadRefusedError()
				return storeAttachment(getStorage(), { userId: user.id, fileName: file.fileName, stream: file.stream })
			},
		})
		return { ok: true, fields, upload: files[0] }
	} catch (failure) {
		const intent = String(seen.get('intent') ?? 'send')
		const receiverId = String(seen.get('receiverId') ?? '') || undefined
		const content = typeof seen.get('content') === 'string' ? String(seen.get('content')) : undefined
		return { ok: false, intent, receiverId, fields: seen, content, ...uploadFailure(failure, uploadFailedTitle(intent), MAX_UPLOAD_MB) }
	}
}

function uploadFailure(error: unknown, uploadFailedTitle: string, maxUploadMb: number): Failure {
	if (error instanceof UploadTooLargeError) {
		return {
			status: 413,
			error: FILE_TOO_LARGE_MESSAGE,
			toast: { type: 'error', title: uploadFailedTitle, description: `${FILE_TOO_LARGE_MESSAGE} Files may be up to ${maxUploadMb} MB.` },
		}
	}
	if (error instanceof RefusedFileTypeError) {
		const message = 'SVG and HTML files cannot be attached.'
		return { status: 415, error: message, toast: { type: 'error', title: uploadFailedTitle, description: message } }
	}
	if (error instanceof UploadRefusedError) return forbiddenFailure()
	if (error instanceof MultipartError) {
		return { status: 400, error: error.message, toast: { type: 'error', title: 'Failed to send message' } }
	}
	console.error('[messages] upload failed', error)
	return { status: 503, error: 'The file could not be stored. Please try again.', toast: { type: 'error', title: uploadFailedTitle } }
}

class UploadRefusedError extends Error {
	override name = 'UploadRefusedError'
}

function forbiddenFailure(): Failure {
	const error = 'You cannot send messages to this person.'
	return { status: 403, error, toast: { type: 'error', title: 'Failed to send message', description: error } }
}

export async function failureResponse(action: ActionRequest, intent: string, failure: Failure, receiverId?: string) {
	return data<MessagesActionData>(
		{ intent, error: failure.error, receiverId, content: failure.content },
		{ status: failure.status, headers: await actionToastHeaders(action, failure.toast) },
	)
}

/** Staff mutations (an admin's, an instructor's) are audited in the transaction that makes them. */
async function auditIfStaff(trx: Kysely<Database>, user: SessionUser, entry: Parameters<typeof recordAudit>[1]) {
	if (user.isAdmin || user.role === 'instructor') await recordAudit(trx, entry)
}

/**
 * The conversation side of a messages page, each part through the page's partial loader: the open
 * thread (a page of it, and the id to ask for the page before), the message `?confirm=` names when it
 * is the user's own, and the messages from deleted accounts.
 */
export async function loadConversation(
	page: ReturnType<typeof partialPage>,
	user: SessionUser,
	{ partnerId, before, confirmId }: { partnerId: string | undefined; before: number | undefined; confirmId: number | null | undefined },
) {
	const db = getDb()
	const thread = partnerId
		? await page.load(listConversation(db, { userId: user.id, partnerId, before }), null, 'Failed to load messages')
		: null
	const fromDeletedAccounts = await page.load(
		listFromDeletedAccounts(db, user.id),
		{ messages: [], hasOlder: false },
		'Failed to load messages',
	)
	return {
		thread: thread ? { messages: thread.messages, olderBefore: thread.hasOlder ? thread.messages[0]!.id : null } : null,
		confirmDelete: thread?.messages.find((message) => message.id === confirmId && message.senderId === user.id)?.id ?? null,
		fromDeletedAccounts: fromDeletedAccounts.messages,
	}
}

/**
 * The action of a conversations page (the student's Messages, the staff's Direct Messages): a file
 * may come only with a message to someone the user may message; then the intent is carried out.
 */
export async function conversationAction(
	action: ActionRequest,
	user: SessionUser,
	options: { threadUrl: (partnerId: string) => string; successToasts: boolean },
) {
	const received = await receiveForm(action.request, user, {
		mayUpload: async (fields) => fields.get('intent') === 'send' && canMessage(getDb(), user, String(fields.get('receiverId') ?? '')),
	})
	if (!received.ok) return failureResponse(action, received.intent, received, received.receiverId)
	return handleConversationIntent(action, received, user, options)
}

/**
 * The conversation intents both messages pages share: send, delete and
 * mark-read. `threadUrl` is where post/redirect/get returns to.
 */
export async function handleConversationIntent(
	action: ActionRequest,
	received: Extract<ReceivedForm, { ok: true }>,
	user: SessionUser,
	{ threadUrl, successToasts }: { threadUrl: (partnerId: string) => string; successToasts: boolean },
) {
	const db = getDb()
	const { fields, upload } = received
	const submission = parseWithZod(fields, { schema: ConversationIntentSchema })
	const intent = String(fields.get('intent') ?? '')
	if (submission.status !== 'success') {
		await discardUpload(upload)
		const receiverId = String(fields.get('receiverId') ?? '') || undefined
		const error = submission.error?.receiverId?.[0] ?? submission.error?.content?.[0] ?? 'The form could not be read.'
		const content = typeof fields.get('content') === 'string' ? String(fields.get('content')) : undefined
		return failureResponse(
			action,
			intent,
			{ status: 400, error, toast: { type: 'error', title: 'Failed to send message' }, content },
			receiverId,
		)
	}
	const value = submission.value

	if (value.intent === 'send') {
		const content = value.content.trim()
		if (!content && !upload) {
			return data<MessagesActionData>({ intent, error: EMPTY_MESSAGE, receiverId: value.receiverId }, { status: 400 })
		}
		if (!(await canMessage(db, user, value.receiverId))) {
			await discardUpload(upload)
			return failureResponse(action, intent, { ...forbiddenFailure(), content }, value.receiverId)
		}
		try {
			await db.transaction().execute(async (trx) => {
				const message = await createMessage(trx, { senderId: user.id, receiverId: value.receiverId, content, attachment: upload })
				// Replying means the conversation was read.
				await markConversationRead(trx, { userId: user.id, partnerId: value.receiverId })
				await auditIfStaff(trx, user, {
					actorId: user.id,
					action: 'message.send',
					entity: 'message',
					entityId: message.id,
					details: { receiverId: value.receiverId, attachment: upload?.name ?? null },
				})
			})
		} catch (error) {
			console.error('[messages] send failed', error)
			await discardUpload(upload)
			return failureResponse(
				action,
				intent,
				{
					status: 503,
					error: 'The message could not be sent. Please try again.',
					toast: { type: 'error', title: 'Failed to send message' },
					content,
				},
				value.receiverId,
			)
		}
		const url = threadUrl(value.receiverId)
		if (!successToasts) return redirect(url)
		return redirectWithToast(url, {
			type: 'success',
			title: 'Message sent',
			description: upload ? 'File attached to message' : undefined,
		})
	}

	if (value.intent === 'delete') {
		const outcome = await deleteMessage(db, getStorage(), {
			messageId: value.messageId,
			userId: user.id,
			beforeCommit: (trx, message) =>
				auditIfStaff(trx, user, {
					actorId: user.id,
					action: message.isAnnouncement ? 'announcement.delete' : 'message.delete',
					entity: 'message',
					entityId: value.messageId,
				}),
		})
		if (outcome.result !== 'deleted') {
			return failureResponse(action, intent, {
				status: outcome.result === 'forbidden' ? 403 : 404,
				error: 'Only the sender can delete a message.',
				toast: { type: 'error', title: 'Failed to delete message' },
			})
		}
		return redirect(safeRedirectPath(value.redirectTo, outcome.receiverId ? threadUrl(outcome.receiverId) : href('/dashboard/messages')))
	}

	await db.transaction().execute(async (trx) => {
		const count = await markConversationRead(trx, { userId: user.id, partnerId: value.partnerId })
		if (count > 0) {
			await auditIfStaff(trx, user, {
				actorId: user.id,
				action: 'message.read',
				entity: 'message',
				details: { partnerId: value.partnerId, count },
			})
		}
	})
	if (value.redirectTo) return redirect(safeRedirectPath(value.redirectTo, threadUrl(value.partnerId)))
	return data({ intent, ok: true })
}

/**
 * The contact list's Refresh link (`?refresh`): reads the contacts once to tell whether that
 * works, then sends the browser to the page without the parameter, with the spec's toast.
 */
export async function refreshContacts(path: string, params: URLSearchParams, user: SessionUser) {
	params.delete('refresh')
	const target = `${path}?${params}`
	try {
		await listContacts(getDb(), user, { search: searchText(params) })
	} catch (error) {
		console.error('[messages] contacts could not be refreshed:', error instanceof Error ? error.message : error)
		return redirectWithToast(target, { type: 'error', title: 'Failed to refresh contacts' })
	}
	return redirectWithToast(target, { type: 'success', title: 'Contacts refreshed' })
}

/** A file stored for a message that was then refused must not stay behind. */
export async function discardUpload(upload: StoredUpload | undefined) {
	if (upload) await deleteStoredFiles(getStorage(), [upload.key])
}
