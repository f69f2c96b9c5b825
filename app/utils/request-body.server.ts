/**
 * A request's body, or null once it passes `limit` bytes (declared in Content-Length or
 * counted while reading): `request.text()` and its kin hold a body of any size in memory.
 * Past the limit the rest stays unread, which the server discards once the answer is out;
 * cancelling the stream instead would close the connection before the answer.
 */
export async function readBodyUpTo(request: Request, limit: number): Promise<Uint8Array<ArrayBuffer> | null> {
	if (Number(request.headers.get('Content-Length')) > limit) return null
	const reader = request.body?.getReader()
	if (!reader) return new Uint8Array()
	const chunks: Uint8Array[] = []
	let size = 0
	try {
		for (let read = await reader.read(); !read.done; read = await reader.read()) {
			size += read.value.byteLength
			if (size > limit) return null
			chunks.push(read.value)
		}
	} finally {
		reader.releaseLock()
	}
	return Buffer.concat(chunks)
}
