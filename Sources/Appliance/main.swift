print("anchor-alert: the event loop arrives with issue 2")
