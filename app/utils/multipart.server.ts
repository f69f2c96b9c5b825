import { once } from 'node:events'
import type { Readable } from 'node:stream'
import { Busboy, type BusboyFileStream } from '@fastify/busboy'
import { conformCanParse } from './form-data.server.ts'

/** The request (or one of its files) is larger than allowed: answer 413. */
export class UploadTooLargeError extends Error {
	override name = 'UploadTooLargeError'
	readonly limitBytes: number
	constructor(limitBytes: number) {
		super(`The upload is larger than ${limitBytes} bytes`)
		this.limitBytes = limitBytes
	}
}

/** The body is not well-formed multipart/form-data (or breaks a structural limit): answer 400. */
export class MultipartError extends Error {
	override name = 'MultipartError'
}

export type FileUpload = {
	fieldName: string
	/** As the browser sent it: never use it as a path. */
	fileName: string
	/** As the browser claimed it: sniff the bytes instead of trusting it. */
	contentType: string
	stream: Readable
}

export type MultipartOptions<T> = {
	maxFileBytes: number
	maxFiles?: number
	maxFieldBytes?: number
	maxFields?: number
	/**
	 * Receives each file while the body is still arriving and must consume its
	 * stream (e.g. into storage) or throw. `fields` holds the text fields sent
	 * before the file, so a form that puts them first can be authorised before
	 * a byte is stored. A file over the limit errors its stream with UploadTooLargeError.
	 */
	onFile: (file: FileUpload, fields: FormData) => Promise<T>
}

const MAX_HEADER_BYTES = 16 * 1024

/**
 * Parses a multipart/form-data request with busboy, without buffering its files: each file
 * is handed to `onFile` as a stream while the body arrives (busboy waits while the consumer
 * is slow), so an oversized file fails while it streams and nothing of it is kept. Text
 * fields are returned as FormData (for parseWithZod). Every structural limit busboy would
 * skip over silently (too many files or fields, a long field, a part without a name) is
 * refused instead, so a forged form never passes as a smaller one.
 */
export async function parseMultipartForm<T>(request: Request, options: MultipartOptions<T>) {
	const maxFiles = options.maxFiles ?? 1
	const maxFieldBytes = options.maxFieldBytes ?? 64 * 1024
	const maxFields = options.maxFields ?? 20
	const contentType = request.headers.get('Content-Type') ?? ''
	if (!/^multipart\/form-data\s*;/i.test(contentType) || !request.body) throw new MultipartError('Expected a multipart/form-data body')
	const maxBodyBytes = options.maxFileBytes * maxFiles + maxFieldBytes * maxFields + 64 * 1024
	const reader = request.body.getReader()

	let failure: unknown
	let wake: (() => void) | undefined
	const failed = (error: unknown) => {
		failure ??= error
		wake?.()
	}
	/**
	 * Waits for `work` unless the parse fails first. A fresh promise each time: racing a
	 * long-lived one would keep every chunk read alive through its reactions.
	 */
	const unlessFailed = <V>(work: Promise<V>) =>
		new Promise<V | undefined>((resolve, reject) => {
			// Attached first, so a rejection of `work` after a failure is never left unhandled.
			work.then(resolve, reject)
			if (failure) return resolve(undefined)
			wake = () => resolve(undefined)
		}).finally(() => {
			wake = undefined
			if (failure) throw failure
		})

	const fields = new FormData()
	const files: Array<Promise<T>> = []
	let current: BusboyFileStream | undefined
	let parser: ReturnType<typeof Busboy>
	try {
		parser = Busboy({
			headers: { 'content-type': contentType },
			preservePath: true,
			isPartAFile: (_fieldName, _contentType, fileName) => fileName !== undefined,
			limits: {
				fileSize: options.maxFileBytes,
				files: maxFiles,
				fields: maxFields,
				fieldSize: maxFieldBytes,
				headerSize: MAX_HEADER_BYTES,
			},
		})
	} catch (error) {
		await drain(reader, maxBodyBytes * 4)
		throw new MultipartError(error instanceof Error ? error.message : 'Unreadable multipart/form-data')
	}
	parser.on('field', (name: string | undefined, value: string, _nameTruncated: boolean, valueTruncated: boolean) => {
		if (name === undefined) return failed(new MultipartError('A part has no field name'))
		if (valueTruncated) return failed(new MultipartError(`The field ${name} is too long`))
		fields.append(name, value)
	})
	parser.on('file', (name: string | undefined, stream: BusboyFileStream, fileName: string, _encoding: string, type: string) => {
		// The consumer sees a failure through its own reads; without a listener here, an
		// error raised before it starts reading would be an uncaught exception.
		stream.on('error', () => {})
		// An empty file input is sent as a part with no name and no bytes.
		if (fileName === '' || failure) return void stream.resume()
		if (name === undefined) {
			stream.resume()
			return failed(new MultipartError('A part has no field name'))
		}
		current = stream
		stream.on('limit', () => {
			const error = new UploadTooLargeError(options.maxFileBytes)
			stream.destroy(error)
			failed(error)
		})
		const upload = options.onFile({ fieldName: name, fileName: decodeQuotedName(fileName), contentType: type, stream }, fields)
		// Handled here so an early failure is never an unhandled rejection; it is rethrown below.
		upload.catch((error: unknown) => {
			stream.destroy()
			failed(error)
		})
		files.push(upload)
	})
	parser.on('filesLimit', () => failed(new MultipartError(maxFiles === 1 ? 'Only one file may be sent' : 'Too many files')))
	parser.on('fieldsLimit', () => failed(new MultipartError('Too many fields')))
	parser.on('error', (error: unknown) => {
		const message = error instanceof Error ? error.message : 'Unreadable multipart/form-data'
		failed(new MultipartError(/unexpected end/i.test(message) ? 'The form data ended early' : message))
	})
	const finished = once(parser, 'finish')
	finished.catch(() => {})

	try {
		const declared = Number(request.headers.get('Content-Length'))
		if (Number.isFinite(declared) && declared > maxBodyBytes) throw new UploadTooLargeError(options.maxFileBytes)
		let received = 0
		for (;;) {
			if (failure) throw failure
			const { done, value } = (await unlessFailed(reader.read()))!
			if (done) break
			received += value.length
			if (received > maxBodyBytes) throw new UploadTooLargeError(options.maxFileBytes)
			// busboy holds the write back while a file's consumer is behind: that is the backpressure.
			await unlessFailed(new Promise<void>((resolve) => parser.write(value, () => resolve())))
		}
		parser.end()
		await unlessFailed(finished)
		const stored = (await unlessFailed(Promise.all(files)))!
		if (!conformCanParse(fields)) throw new MultipartError('The form could not be read. Please send it again.')
		return { fields, files: stored }
	} catch (error) {
		current?.destroy(error instanceof Error ? error : undefined)
		parser.destroy()
		// Let every consumer finish failing (e.g. remove a partly stored file) before answering.
		await Promise.allSettled(files)
		await drain(reader, maxBodyBytes * 4)
		throw error
	}
}

/**
 * Reads and discards the rest of a refused body, so the browser finishes
 * sending and then reads the error page instead of seeing a reset connection;
 * beyond `limit` bytes the connection is given up on.
 */
async function drain(reader: ReadableStreamDefaultReader<Uint8Array>, limit: number) {
	let discarded = 0
	try {
		for (;;) {
			const { done, value } = await reader.read()
			if (done) return
			discarded += value.length
			if (discarded > limit) {
				await reader.cancel()
				return
			}
		}
	} catch {
		// The client went away: nothing left to drain.
	}
}

const QUOTED_ESCAPES: Record<string, string> = { '%22': '"', '%0d': '\r', '%0a': '\n' }

/** Browsers write `"`, CR and LF in a quoted file name as %22, %0D and %0A (the HTML form-data encoding). */
function decodeQuotedName(value: string) {
	return value.replace(/%22|%0d|%0a/gi, (sequence) => QUOTED_ESCAPES[sequence.toLowerCase()]!)
}
