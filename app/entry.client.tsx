import { StrictMode, startTransition } from 'react'
import { hydrateRoot } from 'react-dom/client'
import { HydratedRouter } from 'react-router/dom'

// React Router's data-request decoder leaves a promise (the stream's `closed`) unhandled when a
// request is aborted mid-response, as when one navigation replaces another. The abort is
// intended: it must not surface as an uncaught error (in the console or an error monitor).
window.addEventListener('unhandledrejection', (event) => {
	if (event.reason instanceof DOMException && event.reason.name === 'AbortError') event.preventDefault()
})

startTransition(() => {
	hydrateRoot(
		document,
		<StrictMode>
			<HydratedRouter />
		</StrictMode>,
	)
})
