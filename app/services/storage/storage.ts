import type { Readable } from 'node:stream'

export type StoredObject = { key: string; size: number; lastModified: Date }

export type ByteRange = { start: number; end: number }

export type ObjectStream = {
	body: Readable
	/** Size of the whole object. */
	size: number
	contentType: string
	/** The bytes this stream carries when a range was asked for. */
	range?: ByteRange
}

export type PresignOptions = {
	expiresInSeconds: number
	downloadName?: string
	disposition?: 'inline' | 'attachment'
	contentType?: string
}

/**
 * Where uploaded files live. Keys are server-chosen paths such as
 * `courses/{courseId}/weeks/{weekId}/{category}/{uuid}-{name}`; nothing here is public.
 */
export interface FileStorage {
	readonly kind: 'local' | 's3'
	/** Stores a stream; throws (and leaves nothing behind) if the stream errors. */
	put(key: string, body: Readable | Uint8Array, options: { contentType: string }): Promise<{ size: number }>
	/** Null when the object does not exist. */
	get(key: string, range?: { start: number; end?: number }): Promise<ObjectStream | null>
	stat(key: string): Promise<{ size: number; contentType: string; lastModified: Date } | null>
	/** Deleting a missing object is not an error. */
	delete(key: string): Promise<void>
	deleteMany(keys: string[]): Promise<void>
	/** Every object under a prefix, however many pages the backend needs. */
	list(prefix: string): AsyncIterable<StoredObject>
	/** A short-lived URL the browser can fetch directly; null when the backend has none (local disk). */
	presignedUrl(key: string, options: PresignOptions): Promise<string | null>
	/** Throws when the store cannot be reached. */
	check(): Promise<void>
}
