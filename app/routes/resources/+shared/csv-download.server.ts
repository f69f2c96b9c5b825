import { Readable } from 'node:stream'
import { pipeline } from 'node:stream/promises'
import { stringify } from 'csv-stringify'
import { contentDisposition } from '#app/services/storage/keys.ts'
import { CSV_OPTIONS } from '#app/utils/csv.server.ts'

/**
 * A CSV download streamed as it is read (docs/decisions/066): the header, then each line of `lines`
 * (a query's cursor) turned into cells, through csv-stringify with the app's one cell rule. The
 * cursor is read only as fast as the client takes the file, and a client that goes away cancels
 * the body, which ends the generator and so closes the cursor and frees its connection.
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
	async function* records() {
		yield header
		for await (const line of lines) yield cells(line)
	}
	const csv = stringify(CSV_OPTIONS)
	pipeline(Readable.from(records()), csv).catch((error: NodeJS.ErrnoException) => {
		// The client went away: the body was cancelled, which is no failure of the export.
		if (error.name === 'AbortError' || error.code === 'ERR_STREAM_PREMATURE_CLOSE') return
		console.error('[exports] a CSV export failed:', error.message)
	})
	return new Response(Readable.toWeb(csv) as ReadableStream<Uint8Array>, {
		headers: {
			'Content-Type': 'text/csv; charset=utf-8',
			'Content-Disposition': contentDisposition('attachment', fileName),
			'Cache-Control': 'private, no-store',
			'X-Content-Type-Options': 'nosniff',
		},
	})
}
