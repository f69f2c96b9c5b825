import { isRouteErrorResponse, Link, useRouteError } from 'react-router'
import { buttonClasses } from './ui/button.tsx'

type StatusHandler = (error: { status: number; data: unknown }) => React.ReactNode

function messageOf(data: unknown) {
	if (typeof data === 'string') return data
	if (data && typeof data === 'object' && 'message' in data && typeof data.message === 'string') return data.message
	return null
}

const defaultHandlers: Record<number, StatusHandler> = {
	400: ({ data }) => messageOf(data) ?? 'That request could not be understood.',
	403: ({ data }) => messageOf(data) ?? "You don't have permission to access this area",
	404: ({ data }) => messageOf(data) ?? 'Oops! Page not found',
	413: ({ data }) => messageOf(data) ?? 'File too large. Please select a smaller file.',
	429: ({ data }) => messageOf(data) ?? 'Too many requests. Please wait a few minutes and try again.',
}

/** Renders thrown responses by status; never shows a stack trace outside development. */
export function GeneralErrorBoundary({ statusHandlers }: { statusHandlers?: Record<number, StatusHandler> }) {
	const error = useRouteError()
	const handlers = { ...defaultHandlers, ...statusHandlers }
	let title = 'Something went wrong'
	let body: React.ReactNode = 'An unexpected error occurred. Please try again.'
	if (isRouteErrorResponse(error)) {
		title = error.status === 404 ? 'Oops! Page not found' : `Error ${error.status}`
		const handler = handlers[error.status]
		body = handler ? handler(error) : (messageOf(error.data) ?? error.statusText)
	} else if (import.meta.env.DEV && error instanceof Error) {
		body = <pre className="overflow-auto whitespace-pre-wrap text-left text-xs">{error.stack}</pre>
	}
	return (
		<div className="rounded-xl border border-slate-200 bg-white p-8 text-center shadow-sm">
			<h1 className="text-2xl font-bold text-ink">{title}</h1>
			<div className="mt-3 text-slate-700">{body}</div>
			<Link to="/" className={buttonClasses({ className: 'mt-6' })}>
				Go back home
			</Link>
		</div>
	)
}
