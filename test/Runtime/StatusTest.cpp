//===- StatusTest.cpp - Tests of Status and StatusOr ----------------------===//
//
// Status and StatusOr carry the runtime's errors as values: success or a
// message, a value or a message. These tests pin down the small contract the
// rest of the runtime relies on (ok(), message(), withContext(), moves).
//
//===----------------------------------------------------------------------===//

#include "plaidml/Runtime/Status.h"

#include <gtest/gtest.h>

#include <memory>

using namespace plaidml::rt;

TEST(Status, SuccessAndFailure) {
  EXPECT_TRUE(Status().ok());
  EXPECT_TRUE(Status::success().ok());
  Status failure = Status::failure("disk on fire");
  EXPECT_FALSE(failure.ok());
  EXPECT_EQ(failure.message(), "disk on fire");
  EXPECT_EQ(failure.withContext("saving 'x'").message(),
            "saving 'x': disk on fire");
  EXPECT_TRUE(Status::success().withContext("ignored").ok());
}

TEST(StatusOr, ValueAndError) {
  StatusOr<int> value = 42;
  ASSERT_TRUE(value.ok());
  EXPECT_EQ(*value, 42);
  EXPECT_TRUE(value.status().ok());

  StatusOr<int> error = Status::failure("no answer");
  EXPECT_FALSE(error.ok());
  EXPECT_EQ(error.message(), "no answer");
}

TEST(StatusOr, MoveOnlyValue) {
  StatusOr<std::unique_ptr<int>> value = std::make_unique<int>(7);
  ASSERT_TRUE(value.ok());
  std::unique_ptr<int> taken = std::move(value).value();
  EXPECT_EQ(*taken, 7);
}
