import type { Readable } from 'node:stream'
import {
	AbortMultipartUploadCommand,
	CompleteMultipartUploadCommand,
	CreateBucketCommand,
	CreateMultipartUploadCommand,
	DeleteObjectCommand,
	DeleteObjectsCommand,
	GetObjectCommand,
	HeadBucketCommand,
	HeadObjectCommand,
	ListObjectsV2Command,
	PutObjectCommand,
	S3Client,
	S3ServiceException,
	UploadPartCommand,
} from '@aws-sdk/client-s3'
import { getSignedUrl } from '@aws-sdk/s3-request-presigner'
import { assertRangeShape, assertValidKey, assertValidPrefix, contentDisposition } from './keys.ts'
import type { FileStorage, ObjectStream, PresignOptions, StoredObject } from './storage.ts'

export type S3StorageOptions = {
	bucket: string
	endpoint?: string
	region: string
	accessKeyId: string
	secretAccessKey: string
	forcePathStyle?: boolean
	/** check() creates the bucket when it is missing (tests and local stand-ins only). */
	createBucketIfMissing?: boolean
	/** Page size of list(); S3's maximum is 1000. Injectable so paging can be tested. */
	maxKeys?: number
	/** Size of each part of a streamed upload; S3 requires at least 5 MiB for all but the last. */
	partSize?: number
}

const MIN_PART_SIZE = 5 * 1024 * 1024
const DELETE_BATCH = 1000
const DEFAULT_CONTENT_TYPE = 'application/octet-stream'

/**
 * An S3-compatible bucket (AWS S3, R2, MinIO, s3rver). Streams of unknown length are
 * uploaded in parts of `partSize` bytes, so at most one part is held in memory; a stream
 * that fits in one part is sent as a single PutObject.
 */
export class S3FileStorage implements FileStorage {
	readonly kind = 's3'
	readonly bucket: string
	private readonly client: S3Client
	private readonly createBucketIfMissing: boolean
	private readonly maxKeys: number
	private readonly partSize: number

	constructor(options: S3StorageOptions) {
		this.bucket = options.bucket
		this.createBucketIfMissing = options.createBucketIfMissing ?? false
		this.maxKeys = options.maxKeys ?? 1000
		this.partSize = Math.max(options.partSize ?? 8 * 1024 * 1024, MIN_PART_SIZE)
		this.client = new S3Client({
			region: options.region,
			endpoint: options.endpoint,
			forcePathStyle: options.forcePathStyle,
			credentials: { accessKeyId: options.accessKeyId, secretAccessKey: options.secretAccessKey },
			// The SDK's default checksums corrupt streamed uploads on some S3-compatible servers;
			// AWS S3, R2 and MinIO accept these settings too.
			requestChecksumCalculation: 'WHEN_REQUIRED',
			responseChecksumValidation: 'WHEN_REQUIRED',
		})
	}

	async put(key: string, body: Readable | Uint8Array, options: { contentType: string }) {
		assertValidKey(key)
		if (body instanceof Uint8Array) {
			await this.putBytes(key, body, options.contentType)
			return { size: body.byteLength }
		}
		return this.putStream(key, body, options.contentType)
	}

	async get(key: string, range?: { start: number; end?: number }): Promise<ObjectStream | null> {
		assertValidKey(key)
		if (range) assertRangeShape(range)
		try {
			const response = await this.client.send(
				new GetObjectCommand({
					Bucket: this.bucket,
					Key: key,
					Range: range ? `bytes=${range.start}-${range.end ?? ''}` : undefined,
				}),
			)
			const body = response.Body as Readable
			const contentType = response.ContentType ?? DEFAULT_CONTENT_TYPE
			const contentRange = /^bytes (\d+)-(\d+)\/(\d+)$/.exec(response.ContentRange ?? '')
			// A server may ignore Range and send the whole object; the caller then sees no range.
			if (!contentRange) return { body, size: response.ContentLength ?? 0, contentType }
			return {
				body,
				size: Number(contentRange[3]),
				contentType,
				range: { start: Number(contentRange[1]), end: Number(contentRange[2]) },
			}
		} catch (error) {
			if (isNotFound(error)) return null
			if (error instanceof S3ServiceException && error.$metadata.httpStatusCode === 416) {
				throw new RangeError(`Range not satisfiable: bytes ${range?.start}- of ${key}`)
			}
			throw error
		}
	}

	async stat(key: string) {
		assertValidKey(key)
		try {
			const response = await this.client.send(new HeadObjectCommand({ Bucket: this.bucket, Key: key }))
			return {
				size: response.ContentLength ?? 0,
				contentType: response.ContentType ?? DEFAULT_CONTENT_TYPE,
				lastModified: response.LastModified ?? new Date(0),
			}
		} catch (error) {
			if (isNotFound(error)) return null
			throw error
		}
	}

	async delete(key: string) {
		assertValidKey(key)
		await this.client.send(new DeleteObjectCommand({ Bucket: this.bucket, Key: key }))
	}

	async deleteMany(keys: string[]) {
		keys.forEach(assertValidKey)
		for (let index = 0; index < keys.length; index += DELETE_BATCH) {
			const batch = keys.slice(index, index + DELETE_BATCH)
			const response = await this.client.send(
				new DeleteObjectsCommand({
					Bucket: this.bucket,
					Delete: { Objects: batch.map((Key) => ({ Key })), Quiet: true },
				}),
			)
			const failed = response.Errors?.filter((error) => error.Code !== 'NoSuchKey') ?? []
			if (failed.length > 0) {
				const first = failed[0]!
				throw new Error(`Could not delete ${failed.length} object(s), e.g. ${first.Key}: ${first.Code} ${first.Message}`)
			}
		}
	}

	async *list(prefix: string): AsyncIterable<StoredObject> {
		assertValidPrefix(prefix)
		let continuationToken: string | undefined
		do {
			const page = await this.client.send(
				new ListObjectsV2Command({
					Bucket: this.bucket,
					Prefix: prefix || undefined,
					MaxKeys: this.maxKeys,
					ContinuationToken: continuationToken,
				}),
			)
			for (const object of page.Contents ?? []) {
				if (!object.Key) continue
				yield { key: object.Key, size: object.Size ?? 0, lastModified: object.LastModified ?? new Date(0) }
			}
			continuationToken = page.IsTruncated ? page.NextContinuationToken : undefined
		} while (continuationToken)
	}

	async presignedUrl(key: string, options: PresignOptions) {
		assertValidKey(key)
		const command = new GetObjectCommand({
			Bucket: this.bucket,
			Key: key,
			ResponseContentType: options.contentType,
			ResponseContentDisposition:
				options.downloadName || options.disposition
					? contentDisposition(options.disposition ?? 'attachment', options.downloadName)
					: undefined,
		})
		return getSignedUrl(this.client, command, { expiresIn: options.expiresInSeconds })
	}

	async check() {
		try {
			await this.client.send(new HeadBucketCommand({ Bucket: this.bucket }))
		} catch (error) {
			if (!this.createBucketIfMissing || !isNotFound(error)) throw error
			await this.client.send(new CreateBucketCommand({ Bucket: this.bucket }))
		}
	}

	private async putBytes(key: string, body: Uint8Array, contentType: string) {
		await this.client.send(
			new PutObjectCommand({
				Bucket: this.bucket,
				Key: key,
				Body: body,
				ContentLength: body.byteLength,
				ContentType: contentType,
			}),
		)
	}

	private async putStream(key: string, body: Readable, contentType: string) {
		const parts = chunksOf(body, this.partSize)
		let uploadId: string | undefined
		try {
			const first = await parts.next()
			// Only the last chunk is shorter than a part, so a short first chunk is the whole stream.
			if (first.done || first.value.byteLength < this.partSize) {
				const bytes = first.done ? new Uint8Array(0) : first.value
				await this.putBytes(key, bytes, contentType)
				return { size: bytes.byteLength }
			}
			const created = await this.client.send(new CreateMultipartUploadCommand({ Bucket: this.bucket, Key: key, ContentType: contentType }))
			uploadId = created.UploadId
			const completed: Array<{ ETag: string | undefined; PartNumber: number }> = []
			let size = 0
			for (let next: IteratorResult<Uint8Array> = first; !next.done; next = await parts.next()) {
				const part = next.value
				const PartNumber = completed.length + 1
				const response = await this.client.send(
					new UploadPartCommand({
						Bucket: this.bucket,
						Key: key,
						UploadId: uploadId,
						PartNumber,
						Body: part,
						ContentLength: part.byteLength,
					}),
				)
				completed.push({ ETag: response.ETag, PartNumber })
				size += part.byteLength
			}
			await this.client.send(
				new CompleteMultipartUploadCommand({
					Bucket: this.bucket,
					Key: key,
					UploadId: uploadId,
					MultipartUpload: { Parts: completed },
				}),
			)
			return { size }
		} catch (error) {
			body.destroy()
			if (uploadId) {
				await this.client.send(new AbortMultipartUploadCommand({ Bucket: this.bucket, Key: key, UploadId: uploadId })).catch(() => {})
			}
			throw error
		}
	}
}

/** Re-cuts a stream into buffers of at least `size` bytes (the last one may be shorter). */
async function* chunksOf(stream: Readable, size: number): AsyncGenerator<Uint8Array> {
	let pending: Buffer[] = []
	let pendingBytes = 0
	for await (const chunk of stream) {
		const buffer = typeof chunk === 'string' ? Buffer.from(chunk) : (chunk as Buffer)
		pending.push(buffer)
		pendingBytes += buffer.byteLength
		if (pendingBytes >= size) {
			yield Buffer.concat(pending, pendingBytes)
			pending = []
			pendingBytes = 0
		}
	}
	if (pendingBytes > 0) yield Buffer.concat(pending, pendingBytes)
}

function isNotFound(error: unknown) {
	if (!(error instanceof S3ServiceException)) return false
	return error.$metadata.httpStatusCode === 404 || error.name === 'NoSuchKey' || error.name === 'NotFound'
}
