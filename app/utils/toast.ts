/** A one-time message the root shows on the next page (see toast.server.ts for how it travels). */
export type ToastMessage = {
	id: string
	type: 'success' | 'error' | 'info' | 'warning'
	title: string
	description?: string
}
