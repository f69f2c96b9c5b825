import type { PDFDocumentLoadingTask, PDFDocumentProxy, RenderTask } from 'pdfjs-dist'
import pdfWorkerUrl from 'pdfjs-dist/build/pdf.worker.min.mjs?url'
import { useEffect, useRef, useState } from 'react'
import { Alert } from '#app/components/ui/alert.tsx'
import { Button, buttonClasses } from '#app/components/ui/button.tsx'
import { Spinner } from '#app/components/ui/spinner.tsx'

const MIN_ZOOM = 50
const MAX_ZOOM = 200
const ZOOM_STEP = 25
const DEFAULT_ZOOM = 100

type Status = 'idle' | 'loading' | 'ready' | 'failed' | 'fallback'

/**
 * Renders a PDF in the page with pdf.js (loaded only here, its worker served from our own
 * origin), zoomable from 50 to 200 %. Before JavaScript runs it offers open and download
 * links; if pdf.js itself cannot be loaded, the browser's own viewer in a frame takes over.
 */
export function PdfViewer({ src, downloadUrl, title }: { src: string; downloadUrl: string; title: string }) {
	const [status, setStatus] = useState<Status>('idle')
	const [zoom, setZoom] = useState(DEFAULT_ZOOM)
	const [pdf, setPdf] = useState<PDFDocumentProxy | null>(null)
	const pagesRef = useRef<HTMLElement>(null)

	useEffect(() => {
		let cancelled = false
		let task: PDFDocumentLoadingTask | undefined
		setStatus('loading')
		import('pdfjs-dist').then(
			async (pdfjs) => {
				pdfjs.GlobalWorkerOptions.workerSrc = pdfWorkerUrl
				task = pdfjs.getDocument({ url: src })
				try {
					const loaded = await task.promise
					if (cancelled) return
					setPdf(loaded)
					setStatus('ready')
				} catch {
					if (!cancelled) setStatus('failed')
				}
			},
			() => {
				if (!cancelled) setStatus('fallback')
			},
		)
		return () => {
			cancelled = true
			setPdf(null)
			void task?.destroy()
		}
	}, [src])

	useEffect(() => {
		const container = pagesRef.current
		if (!pdf || !container) return
		let cancelled = false
		let current: RenderTask | undefined
		const renderPages = async () => {
			const outputScale = window.devicePixelRatio || 1
			const scale = (zoom / 100) * (await fitScale(pdf, container))
			for (let number = 1; number <= pdf.numPages; number++) {
				const page = await pdf.getPage(number)
				if (cancelled) return
				const viewport = page.getViewport({ scale })
				const canvas = document.createElement('canvas')
				canvas.width = Math.floor(viewport.width * outputScale)
				canvas.height = Math.floor(viewport.height * outputScale)
				canvas.style.width = `${Math.floor(viewport.width)}px`
				canvas.style.height = `${Math.floor(viewport.height)}px`
				canvas.className = 'mx-auto block max-w-none bg-white shadow'
				canvas.setAttribute('role', 'img')
				canvas.setAttribute('aria-label', `Page ${number} of ${pdf.numPages}`)
				if (number === 1) container.replaceChildren(canvas)
				else container.append(canvas)
				current = page.render({
					canvas,
					viewport,
					transform: outputScale === 1 ? undefined : [outputScale, 0, 0, outputScale, 0, 0],
				})
				await current.promise
			}
		}
		renderPages().catch(() => {
			if (!cancelled) setStatus('failed')
		})
		return () => {
			cancelled = true
			current?.cancel()
		}
	}, [pdf, zoom])

	const links = (
		<>
			<a href={src} target="_blank" rel="noopener" className={buttonClasses({ variant: 'outline', size: 'sm' })}>
				Open in New Tab
			</a>
			<a href={downloadUrl} className={buttonClasses({ variant: 'outline', size: 'sm' })}>
				Download
			</a>
		</>
	)

	if (status === 'failed') {
		return <LoadFailed title="Failed to load PDF document" downloadUrl={downloadUrl} />
	}
	if (status === 'fallback') return <PdfFrame src={src} title={title} downloadUrl={downloadUrl} links={links} />
	if (status === 'idle') {
		return (
			<div className="space-y-3 rounded-lg border border-slate-200 bg-slate-50 p-6 text-center">
				<p className="text-sm text-slate-700">Open the PDF in a new tab or download it.</p>
				<div className="flex flex-wrap justify-center gap-2">{links}</div>
			</div>
		)
	}
	return (
		<div className="space-y-3">
			<div className="flex flex-wrap items-center gap-2">
				<Button
					variant="outline"
					size="sm"
					aria-label="Zoom out"
					disabled={zoom <= MIN_ZOOM}
					onClick={() => setZoom((value) => Math.max(MIN_ZOOM, value - ZOOM_STEP))}
				>
					<span aria-hidden="true">−</span>
				</Button>
				<output aria-live="polite" aria-label="Zoom level" className="w-14 text-center text-sm font-semibold text-ink">
					{zoom}%
				</output>
				<Button
					variant="outline"
					size="sm"
					aria-label="Zoom in"
					disabled={zoom >= MAX_ZOOM}
					onClick={() => setZoom((value) => Math.min(MAX_ZOOM, value + ZOOM_STEP))}
				>
					<span aria-hidden="true">+</span>
				</Button>
				<div className="ml-auto flex flex-wrap gap-2">{links}</div>
			</div>
			{status === 'loading' ? (
				<div className="flex justify-center py-10">
					<Spinner label="Loading PDF…" />
				</div>
			) : null}
			{/* Focusable, so keyboard users can scroll the pages. */}
			<section
				ref={pagesRef}
				aria-label={`${title} pages`}
				tabIndex={0}
				className="max-h-[65vh] space-y-4 overflow-auto rounded-lg bg-slate-100 p-4"
				hidden={status !== 'ready'}
			/>
		</div>
	)
}

/**
 * What 100 % means: the page's own size, or the width of the pane when that is narrower (a
 * phone), so a student never has to zoom out before reading.
 */
async function fitScale(pdf: PDFDocumentProxy, container: HTMLElement) {
	const style = getComputedStyle(container)
	const available = container.clientWidth - Number.parseFloat(style.paddingLeft) - Number.parseFloat(style.paddingRight)
	const pageWidth = (await pdf.getPage(1)).getViewport({ scale: 1 }).width
	return available > 0 ? Math.min(1, available / pageWidth) : 1
}

/** The document could not be shown: the way to download it instead. */
function LoadFailed({ title, downloadUrl }: { title: string; downloadUrl: string }) {
	return (
		<Alert tone="error" title={title}>
			<a href={downloadUrl} className={buttonClasses({ size: 'sm', className: 'mt-2' })}>
				Download PDF
			</a>
		</Alert>
	)
}

/** The browser's built-in viewer, for when pdf.js cannot be loaded; checks what the frame received. */
function PdfFrame({ src, title, downloadUrl, links }: { src: string; title: string; downloadUrl: string; links: React.ReactNode }) {
	const [failed, setFailed] = useState(false)
	if (failed) {
		return <LoadFailed title="Failed to load PDF in iframe" downloadUrl={downloadUrl} />
	}
	return (
		<div className="space-y-3">
			<div className="flex flex-wrap justify-end gap-2">{links}</div>
			<iframe
				src={src}
				title={title}
				className="h-[65vh] w-full rounded-lg border border-slate-200"
				onLoad={(event) => {
					// Same origin, so the frame's document is readable: an error page is not a PDF.
					const type = event.currentTarget.contentDocument?.contentType
					if (type && type !== 'application/pdf') setFailed(true)
				}}
			/>
		</div>
	)
}
