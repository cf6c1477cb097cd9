"""The HTML pages: one module per room (play, lobby, tablelog), their forms and links.

The top of the app with games.api: pages may import any room below, never games.api's views
or games.tasks.
"""
