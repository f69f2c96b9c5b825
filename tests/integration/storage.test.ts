import { createHash, randomBytes } from 'node:crypto'
import fs from 'node:fs/promises'
import os from 'node:os'
import path from 'node:path'
import { Readable } from 'node:stream'
import { setTimeout as sleep } from 'node:timers/promises'
import { afterAll, beforeAll, describe, expect, test } from 'vitest'
import { InvalidStorageKeyError } from '#app/services/storage/keys.ts'
import { LocalFileStorage } from '#app/services/storage/local.server.ts'
import type { S3StorageOptions } from '#app/services/storage/s3.server.ts'
import type { FileStorage } from '#app/services/storage/storage.ts'
import { startS3Server, type TestS3Server } from '#tests/support/s3-server.ts'
import { s3StorageOn } from '#tests/support/s3-storage.ts'

let s3: TestS3Server
const tempDirs: string[] = []

beforeAll(async () => {
	s3 = await startS3Server()
})

afterAll(async () => {
	await s3?.stop()
	await Promise.all(tempDirs.map((dir) => fs.rm(dir, { recursive: true, force: true })))
})

async function tempDir() {
	const dir = await fs.mkdtemp(path.join(os.tmpdir(), 'storage-test-'))
	tempDirs.push(dir)
	return dir
}

const s3Storage = (options: Partial<S3StorageOptions> = {}) => s3StorageOn(s3, options)

async function readAll(stream: Readable) {
	const chunks: Buffer[] = []
	for await (const chunk of stream) chunks.push(Buffer.from(chunk as Uint8Array))
	return Buffer.concat(chunks)
}

/** A stream of unknown length, in chunks, like an upload arriving from a browser. */
function streamOf(bytes: Buffer, chunkSize = 64 * 1024) {
	return Readable.from(
		(function* () {
			for (let offset = 0; offset < bytes.length; offset += chunkSize) yield bytes.subarray(offset, offset + chunkSize)
		})(),
	)
}

/** Sends some bytes, then fails, like an upload whose client went away. */
function failingStream(bytesFirst: number) {
	return Readable.from(
		(async function* () {
			yield randomBytes(bytesFirst)
			await sleep(5)
			throw new Error('client went away')
		})(),
	)
}

async function keysUnder(storage: FileStorage, prefix: string) {
	const keys: string[] = []
	for await (const object of storage.list(prefix)) keys.push(object.key)
	return keys.sort()
}

const sample = Buffer.from('0123456789abcdefghijklmnopqrstuvwxyz')
let counter = 0
/** Each test works under its own prefix, so tests never see each other's objects. */
const freshPrefix = () => `t${++counter}-${Date.now()}`

describe.each([
	{ kind: 'local', create: async (): Promise<FileStorage> => new LocalFileStorage(await tempDir()) },
	{ kind: 's3', create: async (): Promise<FileStorage> => s3Storage() },
])('$kind adapter contract', ({ kind, create }) => {
	let storage: FileStorage

	beforeAll(async () => {
		storage = await create()
		await storage.check()
		expect(storage.kind).toBe(kind)
	})

	test('stores bytes and reads them back whole', async () => {
		const key = `${freshPrefix()}/notes.txt`
		expect(await storage.put(key, new Uint8Array(sample), { contentType: 'text/plain' })).toEqual({ size: sample.length })
		const object = await storage.get(key)
		expect(object).toMatchObject({ size: sample.length, contentType: 'text/plain' })
		expect(object?.range).toBeUndefined()
		expect(await readAll(object!.body)).toEqual(sample)
	})

	test('stores a stream of unknown length', async () => {
		const key = `${freshPrefix()}/upload.bin`
		const bytes = randomBytes(300 * 1024 + 7)
		expect(await storage.put(key, streamOf(bytes), { contentType: 'application/pdf' })).toEqual({ size: bytes.length })
		const object = await storage.get(key)
		expect(object).toMatchObject({ size: bytes.length, contentType: 'application/pdf' })
		expect(await readAll(object!.body)).toEqual(bytes)
	})

	test('stores an empty stream', async () => {
		const key = `${freshPrefix()}/empty.txt`
		expect(await storage.put(key, Readable.from([]), { contentType: 'text/plain' })).toEqual({ size: 0 })
		expect(await storage.stat(key)).toMatchObject({ size: 0 })
	})

	test('overwrites an existing key', async () => {
		const key = `${freshPrefix()}/file.txt`
		await storage.put(key, Buffer.from('first version'), { contentType: 'text/plain' })
		await storage.put(key, Buffer.from('second'), { contentType: 'text/markdown' })
		const object = await storage.get(key)
		expect(object?.contentType).toBe('text/markdown')
		expect((await readAll(object!.body)).toString()).toBe('second')
	})

	test('streams only the bytes of a range', async () => {
		const key = `${freshPrefix()}/range.txt`
		await storage.put(key, sample, { contentType: 'text/plain' })

		const first = await storage.get(key, { start: 0, end: 3 })
		expect(first).toMatchObject({ size: sample.length, range: { start: 0, end: 3 } })
		expect((await readAll(first!.body)).toString()).toBe('0123')

		const middle = await storage.get(key, { start: 10, end: 15 })
		expect(middle?.range).toEqual({ start: 10, end: 15 })
		expect((await readAll(middle!.body)).toString()).toBe('abcdef')

		const toEnd = await storage.get(key, { start: 30 })
		expect(toEnd?.range).toEqual({ start: 30, end: 35 })
		expect((await readAll(toEnd!.body)).toString()).toBe('uvwxyz')

		const pastEnd = await storage.get(key, { start: 33, end: 1000 })
		expect(pastEnd?.range).toEqual({ start: 33, end: 35 })
		expect((await readAll(pastEnd!.body)).toString()).toBe('xyz')

		await expect(storage.get(key, { start: 36 })).rejects.toThrow(RangeError)
		await expect(storage.get(key, { start: 5, end: 2 })).rejects.toThrow(RangeError)
	})

	test('stat reports size, type and modification time', async () => {
		const key = `${freshPrefix()}/stat.pdf`
		const before = Date.now() - 2000
		await storage.put(key, sample, { contentType: 'application/pdf' })
		const stat = await storage.stat(key)
		expect(stat).toMatchObject({ size: sample.length, contentType: 'application/pdf' })
		expect(stat!.lastModified).toBeInstanceOf(Date)
		expect(stat!.lastModified.getTime()).toBeGreaterThan(before)
	})

	test('missing objects are null, and deleting them is no error', async () => {
		const key = `${freshPrefix()}/missing.txt`
		expect(await storage.get(key)).toBeNull()
		expect(await storage.get(key, { start: 0, end: 1 })).toBeNull()
		expect(await storage.stat(key)).toBeNull()
		await expect(storage.delete(key)).resolves.toBeUndefined()
		await expect(storage.deleteMany([key, `${key}-2`])).resolves.toBeUndefined()
		expect(await keysUnder(storage, `${key}/`)).toEqual([])
	})

	test('a "directory" that only holds objects is not an object', async () => {
		const prefix = freshPrefix()
		await storage.put(`${prefix}/dir/file.txt`, sample, { contentType: 'text/plain' })
		expect(await storage.get(`${prefix}/dir`)).toBeNull()
		expect(await storage.stat(`${prefix}/dir`)).toBeNull()
	})

	test('lists every object under a prefix, and nothing else', async () => {
		const prefix = freshPrefix()
		const keys = [`${prefix}/a/1.txt`, `${prefix}/a/2.txt`, `${prefix}/a/sub/3.txt`, `${prefix}/ab/4.txt`, `${prefix}/b/5.txt`]
		for (const key of keys) await storage.put(key, Buffer.from(key), { contentType: 'text/plain' })

		expect(await keysUnder(storage, `${prefix}/a/`)).toEqual(keys.slice(0, 3))
		expect(await keysUnder(storage, `${prefix}/a`)).toEqual(keys.slice(0, 4))
		expect(await keysUnder(storage, `${prefix}/`)).toEqual(keys)
		expect(await keysUnder(storage, `${prefix}/nothing/`)).toEqual([])

		const listed: Array<{ key: string; size: number; lastModified: Date }> = []
		for await (const object of storage.list(`${prefix}/b/`)) listed.push(object)
		expect(listed).toEqual([{ key: `${prefix}/b/5.txt`, size: `${prefix}/b/5.txt`.length, lastModified: expect.any(Date) }])
	})

	test('deletes one object and many objects', async () => {
		const prefix = freshPrefix()
		const keys = ['1', '2', '3', '4'].map((name) => `${prefix}/${name}.txt`)
		for (const key of keys) await storage.put(key, sample, { contentType: 'text/plain' })

		await storage.delete(keys[0]!)
		expect(await storage.stat(keys[0]!)).toBeNull()
		expect(await keysUnder(storage, `${prefix}/`)).toEqual(keys.slice(1))

		await storage.deleteMany([keys[1]!, keys[2]!, `${prefix}/never-existed.txt`])
		expect(await keysUnder(storage, `${prefix}/`)).toEqual([keys[3]])
		await storage.deleteMany([])
	})

	test('a stream that fails part-way leaves no object behind', async () => {
		const prefix = freshPrefix()
		const key = `${prefix}/broken.bin`
		await expect(storage.put(key, failingStream(100 * 1024), { contentType: 'application/pdf' })).rejects.toThrow('client went away')
		expect(await storage.stat(key)).toBeNull()
		expect(await storage.get(key)).toBeNull()
		expect(await keysUnder(storage, `${prefix}/`)).toEqual([])
	})

	test('a failed overwrite keeps the previous object', async () => {
		const key = `${freshPrefix()}/keep.txt`
		await storage.put(key, sample, { contentType: 'text/plain' })
		await expect(storage.put(key, failingStream(10), { contentType: 'text/plain' })).rejects.toThrow()
		const object = await storage.get(key)
		expect(await readAll(object!.body)).toEqual(sample)
	})

	test.each(['../escape.txt', 'a/../../escape.txt', '/etc/passwd', 'a\\b.txt', 'a\u0000b.txt', 'a//b.txt', 'a/.hidden', ''])(
		'refuses the key %j',
		async (key) => {
			await expect(storage.put(key, sample, { contentType: 'text/plain' })).rejects.toThrow(InvalidStorageKeyError)
			await expect(storage.get(key)).rejects.toThrow(InvalidStorageKeyError)
			await expect(storage.stat(key)).rejects.toThrow(InvalidStorageKeyError)
			await expect(storage.delete(key)).rejects.toThrow(InvalidStorageKeyError)
			await expect(storage.deleteMany(['fine.txt', key])).rejects.toThrow(InvalidStorageKeyError)
		},
	)

	test('refuses an unsafe list prefix', async () => {
		await expect(keysUnder(storage, '../')).rejects.toThrow(InvalidStorageKeyError)
		await expect(keysUnder(storage, '/abs/')).rejects.toThrow(InvalidStorageKeyError)
	})

	test('presigned URLs exist only where the backend serves files itself', async () => {
		const key = `${freshPrefix()}/Résumé final.pdf`
		await storage.put(key, sample, { contentType: 'application/octet-stream' })
		const url = await storage.presignedUrl(key, {
			expiresInSeconds: 60,
			downloadName: 'Résumé final.pdf',
			disposition: 'attachment',
			contentType: 'application/pdf',
		})
		if (kind === 'local') {
			expect(url).toBeNull()
			return
		}
		expect(url).toMatch(/^http:\/\/127\.0\.0\.1:\d+\//)
		const response = await fetch(url!)
		expect(response.status).toBe(200)
		expect(Buffer.from(await response.arrayBuffer())).toEqual(sample)
		expect(response.headers.get('content-type')).toBe('application/pdf')
		expect(response.headers.get('content-disposition')).toBe(
			`attachment; filename="R_sum_ final.pdf"; filename*=UTF-8''R%C3%A9sum%C3%A9%20final.pdf`,
		)

		const inline = await storage.presignedUrl(key, { expiresInSeconds: 60, downloadName: 'notes.pdf', disposition: 'inline' })
		const inlineResponse = await fetch(inline!)
		await inlineResponse.arrayBuffer()
		expect(inlineResponse.headers.get('content-disposition')).toBe('inline; filename="notes.pdf"')
	})
})

describe('local adapter', () => {
	test('keeps files at their key and hides its side files', async () => {
		const root = await tempDir()
		const storage = new LocalFileStorage(root)
		await storage.put('courses/1/weeks/2/material/abc-notes.txt', sample, { contentType: 'text/plain' })
		expect(await fs.readFile(path.join(root, 'courses/1/weeks/2/material/abc-notes.txt'))).toEqual(sample)
		expect(await keysUnder(storage, '')).toEqual(['courses/1/weeks/2/material/abc-notes.txt'])
	})

	test('an aborted upload leaves no temporary file on disk', async () => {
		const root = await tempDir()
		const storage = new LocalFileStorage(root)
		await expect(storage.put('a/b/c.bin', failingStream(1024), { contentType: 'text/plain' })).rejects.toThrow()
		const files = await fs.readdir(root, { recursive: true, withFileTypes: true })
		expect(files.filter((entry) => entry.isFile())).toEqual([])
	})

	test('check fails when the directory cannot be written', async () => {
		const file = path.join(await tempDir(), 'not-a-directory')
		await fs.writeFile(file, '')
		await expect(new LocalFileStorage(path.join(file, 'files')).check()).rejects.toThrow()
	})
})

describe('S3 adapter', () => {
	test('list follows continuation tokens across pages', async () => {
		const storage = s3Storage({ maxKeys: 2 })
		const prefix = freshPrefix()
		const keys = ['1', '2', '3', '4', '5'].map((name) => `${prefix}/${name}.txt`)
		for (const key of keys) await storage.put(key, sample, { contentType: 'text/plain' })
		expect(await keysUnder(storage, `${prefix}/`)).toEqual(keys)
	})

	test('uploads a large stream in parts and reads it back intact', async () => {
		const storage = s3Storage({ partSize: 5 * 1024 * 1024 })
		const key = `${freshPrefix()}/video.mp4`
		const bytes = randomBytes(11 * 1024 * 1024 + 123)
		expect(await storage.put(key, streamOf(bytes), { contentType: 'video/mp4' })).toEqual({ size: bytes.length })
		const object = await storage.get(key)
		expect(object).toMatchObject({ size: bytes.length, contentType: 'video/mp4' })
		const stored = await readAll(object!.body)
		expect(createHash('sha256').update(stored).digest('hex')).toBe(createHash('sha256').update(bytes).digest('hex'))
	})

	test('a large stream that fails after some parts leaves no object', async () => {
		const storage = s3Storage({ partSize: 5 * 1024 * 1024 })
		const prefix = freshPrefix()
		await expect(storage.put(`${prefix}/video.mp4`, failingStream(6 * 1024 * 1024), { contentType: 'video/mp4' })).rejects.toThrow(
			'client went away',
		)
		expect(await keysUnder(storage, `${prefix}/`)).toEqual([])
	})

	test('deleteMany sends batches of at most 1000 keys', async () => {
		const storage = s3Storage()
		const prefix = freshPrefix()
		const keys = Array.from({ length: 1001 }, (_, index) => `${prefix}/${index}.txt`)
		await storage.put(keys[0]!, sample, { contentType: 'text/plain' })
		await storage.put(keys[1000]!, sample, { contentType: 'text/plain' })
		await storage.deleteMany(keys)
		expect(await keysUnder(storage, `${prefix}/`)).toEqual([])
	})

	test('check creates a missing bucket only when asked to', async () => {
		await expect(s3Storage({ bucket: 'missing-bucket' }).check()).rejects.toThrow()
		const storage = s3Storage({ bucket: 'created-bucket', createBucketIfMissing: true })
		await storage.check()
		await storage.put('x.txt', sample, { contentType: 'text/plain' })
		expect(await keysUnder(storage, '')).toEqual(['x.txt'])
	})

	test('check fails when the server cannot be reached', async () => {
		const storage = s3Storage({ endpoint: 'http://127.0.0.1:9' })
		await expect(storage.check()).rejects.toThrow()
	})
})
