import { Readable } from 'node:stream'

/** Returns the first `size` bytes and a stream of the whole file (those bytes included), holding no more than that. */
export async function readHead(stream: Readable, size: number) {
	const iterator = stream[Symbol.asyncIterator]() as AsyncIterator<Buffer>
	const chunks: Buffer[] = []
	let length = 0
	let ended = false
	while (length < size) {
		const next = await iterator.next()
		if (next.done) {
			ended = true
			break
		}
		chunks.push(next.value)
		length += next.value.length
	}
	const head = Buffer.concat(chunks)
	async function* whole() {
		yield head
		if (ended) return
		for (;;) {
			const next = await iterator.next()
			if (next.done) return
			yield next.value
		}
	}
	return { head: head.subarray(0, size), rest: Readable.from(whole(), { objectMode: false }) }
}
