import path from 'node:path'
import type { Env } from '#app/utils/env.server.ts'
import { LocalFileStorage } from './local.server.ts'
import { S3FileStorage } from './s3.server.ts'
import type { FileStorage } from './storage.ts'

export type { FileStorage } from './storage.ts'

let storage: FileStorage | undefined
let origin: string | undefined

/** Chooses the adapter once at start-up: S3 when S3_BUCKET is set, the local directory otherwise. */
function createStorage(env: Env): FileStorage {
	if (env.S3_BUCKET) {
		return new S3FileStorage({
			bucket: env.S3_BUCKET,
			endpoint: env.S3_ENDPOINT,
			region: env.S3_REGION,
			accessKeyId: env.S3_ACCESS_KEY_ID!,
			secretAccessKey: env.S3_SECRET_ACCESS_KEY!,
			forcePathStyle: env.S3_FORCE_PATH_STYLE,
		})
	}
	return new LocalFileStorage(path.resolve(env.DATA_DIR, 'files'))
}

export async function initStorage(env: Env) {
	storage = createStorage(env)
	origin = env.S3_BUCKET
		? env.S3_ENDPOINT
			? new URL(env.S3_ENDPOINT).origin
			: `https://${env.S3_BUCKET}.s3.${env.S3_REGION}.amazonaws.com`
		: undefined
	await storage.check()
	return storage
}

/**
 * An upload writes to its file all along, and Node's HTTP server ends a request after 5 minutes
 * (its default requestTimeout): a partial upload untouched for an hour belongs to a process that died.
 */
const ABANDONED_UPLOAD_MS = 60 * 60 * 1000

/**
 * Removes the partial uploads a killed process left on local disk; the number removed. On S3
 * a killed upload leaves an incomplete multipart upload, which the bucket's lifecycle rule
 * (AbortIncompleteMultipartUpload) removes.
 */
export async function removeAbandonedUploads(now = new Date()) {
	const current = getStorage()
	if (!(current instanceof LocalFileStorage)) return 0
	return current.removeAbandonedUploads(new Date(now.getTime() - ABANDONED_UPLOAD_MS))
}

/** Lets a test run app code against a store of its own. */
export function setStorage(next: FileStorage | undefined) {
	storage = next
}

export function getStorage(): FileStorage {
	if (!storage) throw new Error('Storage is not initialised yet (call initStorage at start-up).')
	return storage
}

/** The origin that presigned file URLs point at, for the Content-Security-Policy; none for local files. */
export function storageOrigin() {
	return origin
}
