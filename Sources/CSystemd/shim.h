//===----------------------------------------------------------------------===//
//
// This source file is part of the orientd open source project
//
// Copyright (c) 2026 the orientd project authors
// Licensed under Apache License v2.0
//
// See LICENSE for license information
//
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

#include <string.h>
#include <systemd/sd-bus.h>
#include <systemd/sd-event.h>
#include <systemd/sd-daemon.h>
#include <systemd/sd-login.h>

// sd-bus declares its vtables with initializer macros (SD_BUS_METHOD, SD_BUS_PROPERTY), which Swift cannot
// expand: these functions write the tables of iio-sensor-proxy's interfaces into memory the caller owns, with the
// caller's property getter and method handler (each dispatches on the member's name).

/// The entries of the `net.hadess.SensorProxy` table.
static inline size_t orientd_sensor_proxy_vtable_count(void) { return 16; }

/// Writes the `net.hadess.SensorProxy` table (orientd_sensor_proxy_vtable_count() entries) to `out`.
static inline void orientd_sensor_proxy_vtable(
    sd_bus_vtable *out,
    sd_bus_property_get_t get,
    sd_bus_message_handler_t method
) {
    const uint64_t changes = SD_BUS_VTABLE_PROPERTY_EMITS_CHANGE;
    // Desktops run as their user: without this flag sd-bus would demand CAP_SYS_ADMIN of callers.
    const uint64_t anyone = SD_BUS_VTABLE_UNPRIVILEGED;
    const sd_bus_vtable table[] = {
        SD_BUS_VTABLE_START(0),
        SD_BUS_PROPERTY("HasAccelerometer", "b", get, 0, changes),
        SD_BUS_PROPERTY("AccelerometerOrientation", "s", get, 0, changes),
        SD_BUS_PROPERTY("AccelerometerTilt", "s", get, 0, changes),
        SD_BUS_PROPERTY("HasAmbientLight", "b", get, 0, changes),
        SD_BUS_PROPERTY("LightLevelUnit", "s", get, 0, changes),
        SD_BUS_PROPERTY("LightLevel", "d", get, 0, changes),
        SD_BUS_PROPERTY("HasProximity", "b", get, 0, changes),
        SD_BUS_PROPERTY("ProximityNear", "b", get, 0, changes),
        SD_BUS_METHOD("ClaimAccelerometer", "", "", method, anyone),
        SD_BUS_METHOD("ReleaseAccelerometer", "", "", method, anyone),
        SD_BUS_METHOD("ClaimLight", "", "", method, anyone),
        SD_BUS_METHOD("ReleaseLight", "", "", method, anyone),
        SD_BUS_METHOD("ClaimProximity", "", "", method, anyone),
        SD_BUS_METHOD("ReleaseProximity", "", "", method, anyone),
        SD_BUS_VTABLE_END,
    };
    _Static_assert(sizeof table / sizeof table[0] == 16, "keep orientd_sensor_proxy_vtable_count in step");
    memcpy(out, table, sizeof table);
}

/// The entries of the `net.hadess.SensorProxy.Compass` table.
static inline size_t orientd_compass_vtable_count(void) { return 6; }

/// Writes the `net.hadess.SensorProxy.Compass` table (orientd_compass_vtable_count() entries) to `out`.
static inline void orientd_compass_vtable(
    sd_bus_vtable *out,
    sd_bus_property_get_t get,
    sd_bus_message_handler_t method
) {
    const uint64_t changes = SD_BUS_VTABLE_PROPERTY_EMITS_CHANGE;
    const uint64_t anyone = SD_BUS_VTABLE_UNPRIVILEGED;
    const sd_bus_vtable table[] = {
        SD_BUS_VTABLE_START(0),
        SD_BUS_PROPERTY("HasCompass", "b", get, 0, changes),
        SD_BUS_PROPERTY("CompassHeading", "d", get, 0, changes),
        SD_BUS_METHOD("ClaimCompass", "", "", method, anyone),
        SD_BUS_METHOD("ReleaseCompass", "", "", method, anyone),
        SD_BUS_VTABLE_END,
    };
    _Static_assert(sizeof table / sizeof table[0] == 6, "keep orientd_compass_vtable_count in step");
    memcpy(out, table, sizeof table);
}

/// The entries of orientctl's `org.orientd.AppFocus` table.
static inline size_t orientd_app_focus_vtable_count(void) { return 3; }

/// Writes the `org.orientd.AppFocus` table (orientd_app_focus_vtable_count() entries) to `out`: one method,
/// `Activated(s resource_class, s resource_name, s desktop_file_name)`, which KWin's script calls.
static inline void orientd_app_focus_vtable(sd_bus_vtable *out, sd_bus_message_handler_t method) {
    const sd_bus_vtable table[] = {
        SD_BUS_VTABLE_START(0),
        SD_BUS_METHOD_WITH_NAMES("Activated", "sss", SD_BUS_PARAM(resource_class) SD_BUS_PARAM(resource_name)
            SD_BUS_PARAM(desktop_file_name), "", , method, SD_BUS_VTABLE_UNPRIVILEGED),
        SD_BUS_VTABLE_END,
    };
    _Static_assert(sizeof table / sizeof table[0] == 3, "keep orientd_app_focus_vtable_count in step");
    memcpy(out, table, sizeof table);
}

/// Answers a method call with an empty reply (`sd_bus_reply_method_return`, variadic in C).
static inline int orientd_bus_reply_empty(sd_bus_message *call) {
    return sd_bus_reply_method_return(call, NULL);
}

// polkit's CheckAuthorization takes and returns structures that sd-bus writes and reads with variadic functions,
// which Swift cannot call.

/// Sends `org.freedesktop.PolicyKit1.Authority.CheckAuthorization` for the subject `system-bus-name` `sender` and
/// `action`, without details or interaction (`sd_bus_call_async`): `callback` gets the reply or the error, within
/// `timeout_usec`. The bus starts polkitd if it is activatable.
static inline int orientd_polkit_check_authorization(
    sd_bus *bus,
    sd_bus_slot **slot,
    const char *sender,
    const char *action,
    uint64_t timeout_usec,
    sd_bus_message_handler_t callback,
    void *userdata
) {
    sd_bus_message *call = NULL;
    int result = sd_bus_message_new_method_call(
        bus,
        &call,
        "org.freedesktop.PolicyKit1",
        "/org/freedesktop/PolicyKit1/Authority",
        "org.freedesktop.PolicyKit1.Authority",
        "CheckAuthorization"
    );
    if (result < 0) return result;
    result = sd_bus_message_append(call, "(sa{sv})sa{ss}us", "system-bus-name", 1, "name", "s", sender, action, 0, 0, "");
    if (result >= 0) result = sd_bus_call_async(bus, slot, call, callback, userdata, timeout_usec);
    sd_bus_message_unref(call);
    return result;
}

/// Reads the start of CheckAuthorization's reply `(bba{ss})`: whether the subject is authorized, and whether it
/// would be after authenticating.
static inline int orientd_polkit_read_result(sd_bus_message *reply, int *authorized, int *challenge) {
    int result = sd_bus_message_enter_container(reply, 'r', "bba{ss}");
    if (result < 0) return result;
    return sd_bus_message_read(reply, "bb", authorized, challenge);
}
