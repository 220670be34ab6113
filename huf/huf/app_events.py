"""What names an app event (`huf.fire_app_event(app, event, payload)`): the rule App Event Agent Triggers
and flows' App event triggers share."""

import re

EVENT_NAME_PATTERN = re.compile(r"^[A-Za-z0-9_.:/-]{1,140}$")
