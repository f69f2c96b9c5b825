import { Readable } from 'node:stream'
import { pipeline } from 'node:stream/promises'
import { stringify } from 'csv-stringify'
import { contentDisposition } from '#app/services/storage/keys.ts'
import { CSV_OPTIONS } from '#app/utils/csv.server.ts'
import { processWide } from '#app/utils/process-wide.server.ts'

/**
 * Exports this process streams at once. Each holds a connection of the database pool until its
 * cursor is read to the end, as slowly as its client takes the file: more would starve the pages.
 */
export const MAX_STREAMING_EXPORTS = 2
const streaming = processWide('csv-exports-streaming', () => ({ count: 0 }))

/**
 * A CSV download streamed as it is read (docs/decisions/066): the header, then each line of `lines`
 * (a query's cursor) turned into cells, through csv-stringify with the app's one cell rule. The
 * cursor is read only as fast as the client takes the file, and a client that goes away cancels
 * the body, which ends the generator and so closes the cursor and frees its connection. While
 * `MAX_STREAMING_EXPORTS` are under way, another is told to come back in a minute (429).
 */
export function csvDownload<Line>({
	fileName,
	header,
	lines,
	cells,
}: {
	fileName: string
	header: string[]
	lines: AsyncIterable<Line>
	cells: (line: Line) => Array<string | number>
}) {
	if (streaming.count >= MAX_STREAMING_EXPORTS) {
		return new Response('Other exports are being downloaded right now. Try again in a minute.', {
			status: 429,
			headers: { 'Content-Type': 'text/plain; charset=utf-8', 'Cache-Control': 'no-store', 'Retry-After': '60' },
		})
	}
	streaming.count += 1
	async function* records() {
		yield header
		for await (const line of lines) yield cells(line)
	}
	const csv = stringify(CSV_OPTIONS)
	// Settles once the cursor is read to its end (or the client went away): its connection is free.
	const finished = pipeline(Readable.from(records()), csv)
		.catch((error: NodeJS.ErrnoException) => {
			// The client went away: the body was cancelled, which is no failure of the export.
			if (error.name === 'AbortError' || error.code === 'ERR_STREAM_PREMATURE_CLOSE') return
			console.error('[exports] a CSV export failed:', error.message)
		})
		.finally(() => {
			streaming.count -= 1
		})
	const file = (Readable.toWeb(csv) as ReadableStream<Uint8Array>).getReader()
	// Cancelling the body settles only once the export's connection is free and its place given back.
	const body = new ReadableStream<Uint8Array>({
		async pull(controller) {
			const { done, value } = await file.read()
			if (done) controller.close()
			else controller.enqueue(value)
		},
		async cancel(reason) {
			await file.cancel(reason)
			await finished
		},
	})
	return new Response(body, {
		headers: {
			'Content-Type': 'text/csv; charset=utf-8',
			'Content-Disposition': contentDisposition('attachment', fileName),
			'Cache-Control': 'private, no-store',
			'X-Content-Type-Options': 'nosniff',
		},
	})
}
