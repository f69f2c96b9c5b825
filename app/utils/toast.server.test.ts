import { RouterContextProvider } from 'react-router'
import { describe, expect, test } from 'vitest'
import { actionToastHeaders, getActionToast, getToast } from './toast.server.ts'

const toast = { type: 'error', title: 'Failed to send message' } as const

function post(path: string) {
	return new Request(`http://localhost${path}`, { method: 'POST' })
}

describe('a toast an action answers with data', () => {
	test('goes to a client-side submission as a cookie, which the next load reads once', async () => {
		const context = new RouterContextProvider()
		const headers = await actionToastHeaders({ request: post('/dashboard/messages.data'), context }, toast)
		expect(getActionToast(context)).toBeNull()
		const cookie = headers!.get('Set-Cookie')!.split(';')[0]!
		const read = await getToast(new Request('http://localhost/', { headers: { Cookie: cookie } }))
		expect(read.toast).toMatchObject(toast)
		expect(read.headers?.get('Set-Cookie')).toMatch(/Max-Age=0/)
	})

	test('goes to the page a post without JavaScript renders in the same request, and sets no cookie', async () => {
		const context = new RouterContextProvider()
		const headers = await actionToastHeaders({ request: post('/dashboard/messages'), context }, toast)
		expect(headers).toBeUndefined()
		expect(getActionToast(context)?.toast).toMatchObject(toast)
		expect(getActionToast(new RouterContextProvider())).toBeNull()
	})
})
