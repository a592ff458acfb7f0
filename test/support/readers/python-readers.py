"""Expands iCalendar feeds as two python readers do, for the recurrence interop suite.

Reads a JSON object {name: ics_text} and a window on stdin; writes {name: {"rie": [...], "vobject": [...]}},
each instance "start|end|summary" for timed events (UTC, "YYYY-MM-DD HH:MM:SS") and "date|summary" for all-day
ones: recurring-ical-events (on icalendar) with exceptions applied, and vobject's own rule set (starts of the
series and of its exceptions; vobject does not apply RECURRENCE-ID overrides itself).
"""
import datetime
import json
import sys

import icalendar
import recurring_ical_events
import vobject

UTC = datetime.timezone.utc


def stamp(value):
    if isinstance(value, datetime.datetime):
        return value.astimezone(UTC).strftime("%Y-%m-%d %H:%M:%S")
    return value.strftime("%Y-%m-%d")


def by_rie(text, start, end):
    calendar = icalendar.Calendar.from_ical(text)
    found = []
    for event in recurring_ical_events.of(calendar).between(start, end):
        begin = event["DTSTART"].dt
        summary = str(event.get("SUMMARY"))
        if isinstance(begin, datetime.datetime):
            found.append("%s|%s|%s" % (stamp(begin), stamp(event["DTEND"].dt), summary))
        else:
            found.append("%s|%s" % (stamp(begin), summary))
    return sorted(found)


def by_vobject(text, start, end):
    found = []
    for calendar in vobject.readComponents(text):
        overridden = {}
        for event in calendar.vevent_list:
            if hasattr(event, "recurrence_id"):
                overridden.setdefault(event.uid.value, []).append(event)
        for event in calendar.vevent_list:
            if hasattr(event, "recurrence_id"):
                continue
            moved = overridden.get(event.uid.value, [])
            replaced = {stamp(e.recurrence_id.value) for e in moved}
            timed = isinstance(event.dtstart.value, datetime.datetime)
            for begin in event.getrruleset(addRDate=True) or [event.dtstart.value]:
                if not timed:
                    # vobject gives a date series' instances as midnights: the days they are.
                    found.append(begin.strftime("%Y-%m-%d"))
                elif isinstance(begin, datetime.datetime):
                    if not start <= begin.astimezone(UTC) < end or stamp(begin) in replaced:
                        continue
                    found.append(stamp(begin))
                else:
                    found.append(stamp(begin))
            for e in moved:
                found.append(stamp(e.dtstart.value))
    return sorted(found)


def main():
    request = json.load(sys.stdin)
    start = datetime.datetime.fromisoformat(request["start"]).replace(tzinfo=UTC)
    end = datetime.datetime.fromisoformat(request["end"]).replace(tzinfo=UTC)
    answer = {}
    for name, text in request["feeds"].items():
        answer[name] = {"rie": by_rie(text, start, end), "vobject": by_vobject(text, start, end)}
    json.dump(answer, sys.stdout)


main()
