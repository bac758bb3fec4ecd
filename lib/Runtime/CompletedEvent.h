//===- CompletedEvent.h - An event of finished work -------------*- C++ -*-===//
//
// The Event of a queue that finishes its work before submit() returns (the
// CPU, which runs entry points synchronously, and the GPU device layers,
// whose submission waits for the device): done from the start, holding the
// status of the work. Private to lib/Runtime.
//
//===----------------------------------------------------------------------===//

#ifndef PLAIDML_LIB_RUNTIME_COMPLETEDEVENT_H
#define PLAIDML_LIB_RUNTIME_COMPLETEDEVENT_H

#include "plaidml/Runtime/Buffer.h"

#include <utility>

namespace plaidml::rt {

class CompletedEvent : public Event {
public:
  explicit CompletedEvent(Status status = Status::success())
      : status(std::move(status)) {}
  bool isDone() const override { return true; }
  Status wait() override { return status; }

private:
  Status status;
};

} // namespace plaidml::rt

#endif // PLAIDML_LIB_RUNTIME_COMPLETEDEVENT_H
