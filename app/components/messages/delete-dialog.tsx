import { Form } from 'react-router'
import { Button, ButtonLink } from '#app/components/ui/button.tsx'
import { RouteDialog } from '#app/components/ui/dialog.tsx'

/** The confirmation step before a message is deleted for good (a `?confirm=` state). */
export function DeleteMessageDialog({
	messageId,
	closeTo,
	announcement = false,
}: {
	messageId: number
	closeTo: string
	announcement?: boolean
}) {
	return (
		<RouteDialog
			title={announcement ? 'Delete this announcement?' : 'Delete this message?'}
			description={
				announcement
					? 'The announcement and its attachment are deleted permanently for every student.'
					: 'The message and its attachment are deleted permanently for both of you.'
			}
			closeTo={closeTo}
			size="sm"
		>
			<Form method="post" className="flex justify-end gap-2">
				<input type="hidden" name="intent" value="delete" />
				<input type="hidden" name="messageId" value={messageId} />
				<input type="hidden" name="redirectTo" value={closeTo} />
				<ButtonLink to={closeTo} variant="outline" preventScrollReset>
					Cancel
				</ButtonLink>
				<Button type="submit" variant="destructive">
					Delete
				</Button>
			</Form>
		</RouteDialog>
	)
}
