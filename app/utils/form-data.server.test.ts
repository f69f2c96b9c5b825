import { expect, test } from 'vitest'
import { settle } from '#tests/support/requests.ts'
import { MAX_FORM_BYTES, readFormData } from './form-data.server.ts'

const FORM = { 'Content-Type': 'application/x-www-form-urlencoded' }

/** A body sent in chunks, without a Content-Length, as a client may; counts what was read of it. */
function chunkedRequest(chunkBytes: number, chunks: number) {
	let pulled = 0
	const body = new ReadableStream<Uint8Array>({
		pull(controller) {
			if (pulled === chunks) return controller.close()
			pulled++
			controller.enqueue(new Uint8Array(chunkBytes).fill(0x78))
		},
	})
	const request = new Request('http://localhost/contact', { method: 'POST', headers: FORM, body, duplex: 'half' } as RequestInit)
	return { request, pulled: () => pulled }
}

test('reads urlencoded and multipart forms', async () => {
	const urlencoded = await readFormData(
		new Request('http://localhost/', { method: 'POST', headers: FORM, body: 'name=Ada&name=Grace&email=a%40b.co' }),
	)
	expect(urlencoded.getAll('name')).toEqual(['Ada', 'Grace'])
	const multipart = new FormData()
	multipart.set('message', 'Hello')
	expect((await readFormData(new Request('http://localhost/', { method: 'POST', body: multipart }))).get('message')).toBe('Hello')
})

test('a body that is not a form is a 415, a broken form a 400', async () => {
	const json = await settle(() =>
		readFormData(new Request('http://localhost/', { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: '{}' })),
	)
	expect(json.status).toBe(415)
	const broken = await settle(() =>
		readFormData(
			new Request('http://localhost/', {
				method: 'POST',
				headers: { 'Content-Type': 'multipart/form-data; boundary=x' },
				body: '--x\r\nbroken',
			}),
		),
	)
	expect(broken.status).toBe(400)
})

test("Conform's reserved fields are a 400 unless Conform can apply them, as its own buttons write them", async () => {
	const post = (body: string) => settle(() => readFormData(new Request('http://localhost/', { method: 'POST', headers: FORM, body })))
	for (const reserved of [
		'__intent__=not+json',
		'__intent__=%7B%7D',
		`__intent__=${encodeURIComponent('{"type":"insert","payload":{"name":"title"}}')}`,
		'__state__=%7B',
	]) {
		expect((await post(`title=Week&${reserved}`)).status).toBe(400)
	}
	const added = await readFormData(
		new Request('http://localhost/', {
			method: 'POST',
			headers: FORM,
			body: `title=Week&__intent__=${encodeURIComponent('{"type":"insert","payload":{"name":"items"}}')}`,
		}),
	)
	expect(added.get('title')).toBe('Week')
})

test('a form over MAX_FORM_BYTES is a 413, and reading stops at the limit', async () => {
	const declared = await settle(() =>
		readFormData(
			new Request('http://localhost/', { method: 'POST', headers: { ...FORM, 'Content-Length': String(MAX_FORM_BYTES + 1) }, body: 'x=1' }),
		),
	)
	expect(declared.status).toBe(413)

	const chunkBytes = 64 * 1024
	const endless = chunkedRequest(chunkBytes, 10_000)
	const refused = await settle(() => readFormData(endless.request))
	expect(refused.status).toBe(413)
	expect(endless.pulled() * chunkBytes).toBeLessThan(MAX_FORM_BYTES + 4 * chunkBytes)

	const justUnder = chunkedRequest(chunkBytes, MAX_FORM_BYTES / chunkBytes)
	expect((await readFormData(justUnder.request)).has('x'.repeat(MAX_FORM_BYTES))).toBe(true)
})
