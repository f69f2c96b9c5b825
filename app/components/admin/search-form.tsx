import { Form, Link } from 'react-router'
import { Button } from '#app/components/ui/button.tsx'
import { Input, Label } from '#app/components/ui/input.tsx'

/** A server-side search (GET ?q=), so it works without JavaScript and the URL can be shared. */
export function SearchForm({ action, label, placeholder, query }: { action: string; label: string; placeholder: string; query: string }) {
	return (
		<Form method="get" action={action} role="search" className="flex w-full max-w-md items-end gap-2">
			{/* min-w-48: a width of its own where flexbox is missing (NetSurf), or its full-width input has none. */}
			<div className="min-w-48 flex-1">
				<Label htmlFor="admin-search" className="sr-only">
					{label}
				</Label>
				<Input id="admin-search" type="search" name="q" defaultValue={query} placeholder={placeholder} maxLength={200} />
			</div>
			<Button type="submit" variant="outline">
				Search
			</Button>
			{query ? (
				<Link to={action} className="self-center text-sm font-medium text-brand-700 underline-offset-4 hover:underline">
					Clear
				</Link>
			) : null}
		</Form>
	)
}
