import { PassThrough, type Readable } from 'node:stream'

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

const CRLF = Buffer.from('\r\n')
const HEADER_END = Buffer.from('\r\n\r\n')
const MAX_HEADER_BYTES = 16 * 1024
const DASH = 0x2d

type Part =
	| { kind: 'field'; name: string; chunks: Buffer[]; bytes: number }
	| { kind: 'file'; stream: PassThrough; bytes: number }
	| { kind: 'skip' }

/**
 * Parses a multipart/form-data request without buffering its files: each file
 * is handed to `onFile` as a stream and counted as it passes, so an oversized
 * file fails while it streams and nothing of it is kept. Text fields are
 * returned as FormData (for parseWithZod).
 */
export async function parseMultipartForm<T>(request: Request, options: MultipartOptions<T>) {
	const maxFiles = options.maxFiles ?? 1
	const maxFieldBytes = options.maxFieldBytes ?? 64 * 1024
	const maxFields = options.maxFields ?? 20
	const boundary = boundaryOf(request.headers.get('Content-Type'))
	if (!boundary || !request.body) throw new MultipartError('Expected a multipart/form-data body')
	const maxBodyBytes = options.maxFileBytes * maxFiles + maxFieldBytes * maxFields + 64 * 1024

	const delimiter = Buffer.from(`\r\n--${boundary}`)
	// The first boundary has no CRLF before it; starting with one lets a single search find them all.
	let buffer = Buffer.from(CRLF)
	let state = 'preamble' as 'preamble' | 'boundary' | 'headers' | 'body' | 'done'
	let part: Part | undefined
	let fieldCount = 0
	let fileCount = 0
	let failure: unknown
	const fields = new FormData()
	const files: Array<Promise<T>> = []
	const reader = request.body.getReader()

	const startPart = (headers: Map<string, string>) => {
		const disposition = parseParameters(headers.get('content-disposition') ?? '')
		const name = disposition.get('name')
		if (name === undefined) throw new MultipartError('A part has no field name')
		const fileName = disposition.get('filename*') ?? disposition.get('filename')
		if (fileName === undefined) {
			fieldCount += 1
			if (fieldCount > maxFields) throw new MultipartError('Too many fields')
			part = { kind: 'field', name, chunks: [], bytes: 0 }
			return
		}
		// An empty file input is sent as a part with no name and no bytes.
		if (fileName === '') {
			part = { kind: 'skip' }
			return
		}
		fileCount += 1
		if (fileCount > maxFiles) throw new MultipartError(maxFiles === 1 ? 'Only one file may be sent' : 'Too many files')
		const stream = new PassThrough()
		// The consumer sees a failure through its own reads; without a listener here, an
		// error raised before it starts reading would be an uncaught exception.
		stream.on('error', () => {})
		const upload = options.onFile(
			{ fieldName: name, fileName, contentType: headers.get('content-type') ?? 'application/octet-stream', stream },
			fields,
		)
		// Handled here so an early failure is never an unhandled rejection; it is rethrown below.
		upload.catch((error: unknown) => {
			failure ??= error
			stream.destroy()
		})
		files.push(upload)
		part = { kind: 'file', stream, bytes: 0 }
	}

	const emit = async (chunk: Buffer) => {
		if (!part || chunk.length === 0) return
		if (part.kind === 'field') {
			part.bytes += chunk.length
			if (part.bytes > maxFieldBytes) throw new MultipartError(`The field ${part.name} is too long`)
			part.chunks.push(chunk)
		} else if (part.kind === 'file') {
			part.bytes += chunk.length
			if (part.bytes > options.maxFileBytes) {
				const error = new UploadTooLargeError(options.maxFileBytes)
				part.stream.destroy(error)
				throw error
			}
			await write(part.stream, chunk)
		}
	}

	const endPart = () => {
		if (part?.kind === 'field') fields.append(part.name, Buffer.concat(part.chunks).toString('utf8'))
		if (part?.kind === 'file') part.stream.end()
		part = undefined
	}

	const consume = async () => {
		for (;;) {
			if (state === 'preamble' || state === 'body') {
				const index = buffer.indexOf(delimiter)
				if (index === -1) {
					// Keep a tail that could be the start of a delimiter split across chunks.
					const keep = delimiter.length - 1
					if (buffer.length > keep) {
						if (state === 'body') await emit(buffer.subarray(0, buffer.length - keep))
						buffer = buffer.subarray(buffer.length - keep)
					}
					return
				}
				if (state === 'body') {
					await emit(buffer.subarray(0, index))
					endPart()
				}
				buffer = buffer.subarray(index + delimiter.length)
				state = 'boundary'
			}
			if (state === 'boundary') {
				if (buffer.length < 2) return
				if (buffer[0] === DASH && buffer[1] === DASH) {
					state = 'done'
					return
				}
				const lineEnd = buffer.indexOf(CRLF)
				if (lineEnd === -1) {
					if (buffer.length > 1024) throw new MultipartError('Malformed boundary line')
					return
				}
				buffer = buffer.subarray(lineEnd + CRLF.length)
				state = 'headers'
			}
			if (state === 'headers') {
				const end = buffer.indexOf(HEADER_END)
				if (end === -1) {
					if (buffer.length > MAX_HEADER_BYTES) throw new MultipartError('Part headers are too long')
					return
				}
				startPart(parseHeaders(buffer.subarray(0, end).toString('utf8')))
				buffer = buffer.subarray(end + HEADER_END.length)
				state = 'body'
			}
		}
	}

	try {
		const declared = Number(request.headers.get('Content-Length'))
		if (Number.isFinite(declared) && declared > maxBodyBytes) throw new UploadTooLargeError(options.maxFileBytes)
		let received = 0
		while (state !== 'done') {
			if (failure) throw failure
			const { done, value } = await reader.read()
			if (done) throw new MultipartError('The form data ended early')
			received += value.length
			if (received > maxBodyBytes) throw new UploadTooLargeError(options.maxFileBytes)
			buffer = buffer.length > 0 ? Buffer.concat([buffer, value]) : Buffer.from(value)
			await consume()
		}
		return { fields, files: await Promise.all(files) }
	} catch (error) {
		if (part?.kind === 'file') part.stream.destroy(error instanceof Error ? error : undefined)
		// Let every consumer finish failing (e.g. remove a partly stored file) before answering.
		await Promise.allSettled(files)
		await drain(reader, maxBodyBytes * 4)
		throw error
	}
}

/** Writes with backpressure; a consumer that has gone away is not written to (its failure surfaces elsewhere). */
async function write(stream: PassThrough, chunk: Buffer) {
	if (stream.destroyed) return
	if (stream.write(chunk)) return
	await new Promise<void>((resolve) => {
		const done = () => {
			stream.off('drain', done)
			stream.off('close', done)
			resolve()
		}
		stream.on('drain', done)
		stream.on('close', done)
	})
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

function boundaryOf(contentType: string | null) {
	if (!contentType || !/^multipart\/form-data\s*(;|$)/i.test(contentType)) return null
	const boundary = parseParameters(contentType).get('boundary')
	return boundary && boundary.length <= 70 ? boundary : null
}

function parseHeaders(text: string) {
	const headers = new Map<string, string>()
	for (const line of text.split('\r\n')) {
		const colon = line.indexOf(':')
		if (colon <= 0) continue
		headers.set(line.slice(0, colon).trim().toLowerCase(), line.slice(colon + 1).trim())
	}
	return headers
}

/**
 * Parameters of a header value such as `form-data; name="a"; filename="b.png"`, keys lower-cased.
 * A quoted value is read as browsers write it (the HTML form-data encoding): a backslash is a
 * literal character, as in a Windows path, and `"`, CR and LF arrive as %22, %0D and %0A.
 */
function parseParameters(value: string) {
	const parameters = new Map<string, string>()
	const pattern = /;\s*([^\s=;]+)\s*=\s*(?:"([^"]*)"|([^;]*))/g
	for (const match of value.matchAll(pattern)) {
		const key = match[1]!.toLowerCase()
		let parameter = match[2] !== undefined ? decodeQuotedValue(match[2]) : match[3]!.trim()
		if (key.endsWith('*')) parameter = decodeExtendedValue(parameter)
		parameters.set(key, parameter)
	}
	return parameters
}

const QUOTED_ESCAPES: Record<string, string> = { '%22': '"', '%0d': '\r', '%0a': '\n' }

function decodeQuotedValue(value: string) {
	return value.replace(/%22|%0d|%0a/gi, (sequence) => QUOTED_ESCAPES[sequence.toLowerCase()]!)
}

/** RFC 5987 `UTF-8''percent-encoded` values. */
function decodeExtendedValue(value: string) {
	const match = /^utf-8''(.*)$/i.exec(value)
	if (!match) return value
	try {
		return decodeURIComponent(match[1]!)
	} catch {
		return value
	}
}
