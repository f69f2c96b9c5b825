import { useEffect, useRef, useState } from 'react'
import { isPreviewable } from '#app/models/messaging/messages.ts'
import { cn, formatFileSize } from '#app/utils/misc.ts'

export type AttachmentItem = { id: number; name: string; type: string; size: number; url: string }

/** Images (jpeg, gif, png) are previewed; any other file is offered as a download. */
export function AttachmentView({ attachment, onDark = false }: { attachment: AttachmentItem; onDark?: boolean }) {
	const size = formatFileSize(attachment.size)
	const linkClass = cn('font-medium underline underline-offset-2 break-all', onDark ? 'text-white' : 'text-brand-800')
	if (isPreviewable(attachment.type)) return <ImagePreview attachment={attachment} size={size} linkClass={linkClass} onDark={onDark} />
	return <DownloadLink attachment={attachment} size={size} linkClass={linkClass} onDark={onDark} />
}

type PartProps = { attachment: AttachmentItem; size: string; linkClass: string; onDark: boolean }

/** An image that cannot be shown (its file missing or unreadable) says so and keeps the download. */
function ImagePreview({ attachment, size, linkClass, onDark }: PartProps) {
	const [failed, setFailed] = useState(false)
	const imageRef = useRef<HTMLImageElement>(null)
	// An error before hydration fired no handler: a finished load without pixels is one.
	useEffect(() => {
		const image = imageRef.current
		if (image?.complete && image.naturalWidth === 0) setFailed(true)
	}, [])
	if (failed) {
		return (
			<div className="mt-2">
				<p role="alert" className={cn('text-sm font-medium', onDark ? 'text-white' : 'text-red-800')}>
					Failed to preview attachment
				</p>
				<DownloadLink attachment={attachment} size={size} linkClass={linkClass} onDark={onDark} />
			</div>
		)
	}
	return (
		<figure className="mt-2">
			<a href={attachment.url} target="_blank" rel="noreferrer" className="block">
				<img
					ref={imageRef}
					src={attachment.url}
					alt={attachment.name}
					loading="lazy"
					onError={() => setFailed(true)}
					className="max-h-60 max-w-full rounded-md border border-slate-200 bg-white object-contain"
				/>
			</a>{' '}
			{/* The space parts the image's name from the caption for a text browser, which sets them on one line. */}
			<figcaption className={cn('mt-1 text-xs', onDark ? 'text-white' : 'text-slate-600')}>
				{attachment.name} ({size})
			</figcaption>
		</figure>
	)
}

function DownloadLink({ attachment, size, linkClass, onDark }: PartProps) {
	return (
		<p className="mt-2 text-sm">
			<a href={attachment.url} download={attachment.name} className={linkClass}>
				<span aria-hidden="true">📎 </span>
				{attachment.name}
			</a>{' '}
			<span className={cn('text-xs', onDark ? 'text-white' : 'text-slate-600')}>({size})</span>
		</p>
	)
}
