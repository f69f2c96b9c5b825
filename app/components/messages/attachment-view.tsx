import { cn, formatFileSize } from '#app/utils/misc.ts'

export type AttachmentItem = { id: number; name: string; type: string; size: number; url: string }

const PREVIEW_TYPES = new Set(['image/jpeg', 'image/png', 'image/gif'])

/** The spec previews jpeg, jpg, gif and png; the type was sniffed from the bytes at upload. */
export function isPreviewable(type: string) {
	return PREVIEW_TYPES.has(type)
}

/** Images (jpeg, gif, png) are previewed; any other file is offered as a download. */
export function AttachmentView({ attachment, onDark = false }: { attachment: AttachmentItem; onDark?: boolean }) {
	const size = formatFileSize(attachment.size)
	const linkClass = cn('font-medium underline underline-offset-2 break-all', onDark ? 'text-white' : 'text-brand-800')
	if (isPreviewable(attachment.type)) {
		return (
			<figure className="mt-2">
				<a href={attachment.url} target="_blank" rel="noreferrer" className="block">
					<img
						src={attachment.url}
						alt={attachment.name}
						loading="lazy"
						className="max-h-60 max-w-full rounded-md border border-slate-200 bg-white object-contain"
					/>
				</a>
				<figcaption className={cn('mt-1 text-xs', onDark ? 'text-white' : 'text-slate-600')}>
					{attachment.name} ({size})
				</figcaption>
			</figure>
		)
	}
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
