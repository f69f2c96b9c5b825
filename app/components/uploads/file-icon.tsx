import type { ViewerKind } from '#app/models/materials/materials.ts'

const ICONS: Record<ViewerKind, { path: string; label: string }> = {
	pdf: { path: 'M6 3h8l4 4v14H6zM14 3v4h4M9 13h6M9 17h4', label: 'PDF' },
	image: { path: 'M4 5h16v14H4zM4 16l5-5 4 4 3-3 4 4M15.5 9.5h.01', label: 'Image' },
	video: { path: 'M3 6h13v12H3zM16 10l5-3v10l-5-3', label: 'Video' },
	youtube: {
		path: 'M3 7.5C3 6 4 5 5.5 5h13C20 5 21 6 21 7.5v9c0 1.5-1 2.5-2.5 2.5h-13C4 19 3 18 3 16.5zM10 9v6l5-3z',
		label: 'YouTube video',
	},
	word: { path: 'M6 3h8l4 4v14H6zM14 3v4h4M8.5 11l1.5 6 2-4.5 2 4.5 1.5-6', label: 'Word document' },
	powerpoint: { path: 'M6 3h8l4 4v14H6zM14 3v4h4M10 17v-6h2.5a2 2 0 0 1 0 4H10', label: 'PowerPoint presentation' },
	excel: { path: 'M6 3h8l4 4v14H6zM14 3v4h4M9 11l5 6M14 11l-5 6', label: 'Excel spreadsheet' },
	other: { path: 'M6 3h8l4 4v14H6zM14 3v4h4', label: 'File' },
}

/** A file's type in words ('PDF', 'Word document'), as its icon is named. */
export function fileKindLabel(kind: ViewerKind) {
	return ICONS[kind].label
}

/** What every file icon draws with: a 24-unit stroke drawing in the brand colour. */
const svgFrame = {
	viewBox: '0 0 24 24',
	className: 'size-5 shrink-0 text-brand-700',
	fill: 'none',
	stroke: 'currentColor',
	strokeWidth: '1.8',
	strokeLinejoin: 'round',
} as const

/**
 * A file's type as an icon, named for screen readers; `decorative` hides it from them where the
 * type is written beside it.
 */
export function FileKindIcon({ kind, decorative = false }: { kind: ViewerKind; decorative?: boolean }) {
	const icon = ICONS[kind]
	if (decorative)
		return (
			<svg aria-hidden="true" {...svgFrame}>
				<path d={icon.path} />
			</svg>
		)
	return (
		<svg role="img" aria-label={icon.label} {...svgFrame}>
			<title>{icon.label}</title>
			<path d={icon.path} />
		</svg>
	)
}
