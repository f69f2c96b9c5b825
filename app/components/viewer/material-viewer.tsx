import { useEffect, useRef, useState } from 'react'
import { Alert } from '#app/components/ui/alert.tsx'
import { ButtonLink, buttonClasses } from '#app/components/ui/button.tsx'
import { isOfficeKind, OFFICE_APPS, type OfficeKind, type ViewerItem } from '#app/models/materials/materials.ts'
import { PdfViewer } from './pdf-viewer.tsx'

/** Shows one material by kind; a protected document shows the 'Protected Content' overlay first. */
export function MaterialViewer({ item, isProtected, revealTo }: { item: ViewerItem; isProtected: boolean; revealTo: string }) {
	if (isProtected) return <ProtectedContent revealTo={revealTo} />
	const { kind, fileUrl, downloadUrl } = item
	if (kind === 'pdf' && fileUrl && downloadUrl) return <PdfViewer src={fileUrl} downloadUrl={downloadUrl} title={item.title} />
	if (kind === 'image' && fileUrl) return <ImageView src={fileUrl} alt={item.title} />
	if (kind === 'video' && fileUrl) {
		return (
			// biome-ignore lint/a11y/useMediaCaption: an uploaded video comes without a caption file (admins upload the video alone)
			<video controls preload="metadata" src={fileUrl} className="max-h-[70vh] w-full rounded-lg bg-black">
				<a href={downloadUrl ?? fileUrl}>Download the video</a>
			</video>
		)
	}
	if (kind === 'youtube' && item.embedUrl) {
		return (
			<div className="aspect-video w-full overflow-hidden rounded-lg bg-black">
				<iframe
					src={item.embedUrl}
					title={item.title}
					className="size-full"
					allow="encrypted-media; picture-in-picture; fullscreen"
					allowFullScreen
					referrerPolicy="strict-origin-when-cross-origin"
				/>
			</div>
		)
	}
	if (isOfficeKind(kind) && downloadUrl && item.previewUrl) {
		return (
			<div className="space-y-2">
				<PdfViewer src={item.previewUrl} downloadUrl={downloadUrl} title={item.title} />
				<p className="text-sm text-slate-600">
					A PDF copy of the {OFFICE_APPS[kind]} file. Download keeps the original, to open in {OFFICE_APPS[kind]}.
				</p>
			</div>
		)
	}
	if (isOfficeKind(kind) && downloadUrl && item.previewPending) {
		return (
			<Alert tone="info" title="Preparing a preview">
				<p>
					This {OFFICE_APPS[kind]} file is being turned into a page you can read here. It takes a moment: open it again shortly, or download
					it now.
				</p>
				<div className="mt-3">
					<a href={downloadUrl} className={buttonClasses({ variant: 'outline', size: 'sm' })}>
						Download
					</a>
				</div>
			</Alert>
		)
	}
	if (isOfficeKind(kind) && downloadUrl) {
		return (
			<OfficeView
				kind={kind}
				title={item.title}
				sourceUrl={item.officeSourceUrl}
				downloadUrl={downloadUrl}
				previewsOff={item.previewsOff}
			/>
		)
	}
	const openUrl = fileUrl ?? item.externalUrl
	return (
		<div className="space-y-4 rounded-lg border border-slate-200 bg-slate-50 p-6 text-center">
			<p className="text-sm text-slate-700">This file type cannot be previewed directly.</p>
			<div className="flex flex-wrap justify-center gap-2">
				{openUrl ? (
					<a href={openUrl} target="_blank" rel="noopener noreferrer" className={buttonClasses()}>
						Open in New Tab
					</a>
				) : null}
				{downloadUrl ? (
					<a href={downloadUrl} className={buttonClasses({ variant: 'outline' })}>
						Download
					</a>
				) : null}
			</div>
		</div>
	)
}

function ProtectedContent({ revealTo }: { revealTo: string }) {
	return (
		<div className="flex flex-col items-center gap-3 rounded-xl border border-slate-200 bg-slate-50 px-6 py-12 text-center">
			<svg aria-hidden="true" viewBox="0 0 24 24" className="size-10 text-brand-700" fill="none" stroke="currentColor" strokeWidth="1.8">
				<path d="M6 11h12v10H6zM8.5 11V7.5a3.5 3.5 0 0 1 7 0V11" strokeLinejoin="round" />
			</svg>
			<h3 className="text-lg font-semibold text-ink">Protected Content</h3>
			<p className="max-w-md text-sm text-slate-700">
				This document is for enrolled students only. Please do not copy, share or redistribute it.
			</p>
			<ButtonLink to={revealTo} replace preventScrollReset>
				View Document
			</ButtonLink>
		</div>
	)
}

function ImageView({ src, alt }: { src: string; alt: string }) {
	const [failed, setFailed] = useState(false)
	const imageRef = useRef<HTMLImageElement>(null)
	useEffect(() => {
		// An image that failed before hydration fires no error event that React could see.
		const image = imageRef.current
		if (image?.complete && image.naturalWidth === 0) setFailed(true)
	}, [])
	if (failed) return <Alert tone="error" title="Failed to load image" />
	return (
		<img ref={imageRef} src={src} alt={alt} onError={() => setFailed(true)} className="mx-auto max-h-[70vh] w-auto max-w-full rounded-lg" />
	)
}

const OFFICE_VIEWER = 'https://view.officeapps.live.com/op/embed.aspx'
const ALTERNATIVE_VIEWER = 'https://docs.google.com/viewer'

/**
 * Word, PowerPoint and Excel files through the online office viewer, which must fetch the
 * file itself: only possible with a presigned URL. Otherwise the file can only be downloaded.
 */
function OfficeView({
	kind,
	title,
	sourceUrl,
	downloadUrl,
	previewsOff,
}: {
	kind: OfficeKind
	title: string
	sourceUrl: string | null
	downloadUrl: string
	previewsOff: boolean
}) {
	const download = (
		<a href={downloadUrl} className={buttonClasses({ variant: 'outline', size: 'sm' })}>
			Download
		</a>
	)
	// Nothing failed: this server makes no previews, or none of this file yet; the file itself is a click away (docs/decisions/047).
	if (!sourceUrl) {
		return (
			<Alert tone="info" title={`Download to read this ${OFFICE_APPS[kind]} file`}>
				<p>
					{previewsOff
						? 'Previews of Office documents are not turned on at this school.'
						: 'There is no preview of this file to show here.'}{' '}
					Download it to open it in {OFFICE_APPS[kind]}.
				</p>
				<div className="mt-3">{download}</div>
			</Alert>
		)
	}
	const alternative = `${ALTERNATIVE_VIEWER}?${new URLSearchParams({ url: sourceUrl, embedded: 'true' })}`
	return (
		<div className="space-y-3">
			<iframe
				src={`${OFFICE_VIEWER}?${new URLSearchParams({ src: sourceUrl })}`}
				title={title}
				className="h-[65vh] w-full rounded-lg border border-slate-200"
			/>
			<div className="rounded-lg border border-slate-200 bg-slate-50 p-3 text-sm text-slate-700">
				<p>
					If the document does not appear, open it in the{' '}
					<a href={alternative} target="_blank" rel="noopener noreferrer" className="font-semibold text-brand-700 underline">
						alternative online viewer
					</a>{' '}
					or download it to open it in {OFFICE_APPS[kind]}.
				</p>
				<div className="mt-2">{download}</div>
			</div>
		</div>
	)
}
